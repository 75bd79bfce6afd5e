/// Who made the `auth` schema of a database authflow opened.
package enum AuthSchemaOrigin: Equatable, Sendable {
  /// The schema was missing or empty: authflow made GoTrue's schema now.
  case madeNow
  /// It holds GoTrue's migrations (GoTrue ran them, or an authflow made it before): nothing in
  /// it was made or changed.
  case existing
}

/// Makes a PostgreSQL database ready for the store: GoTrue's `auth` schema on an empty
/// database, and authflow's own schema.
///
/// A database whose `auth.schema_migrations` holds rows was migrated by GoTrue (or made by an
/// authflow, which writes GoTrue's rows): nothing in `auth` is created or altered. An `auth`
/// schema that holds objects but no such rows belongs to someone else, and is refused. All of
/// it happens in one transaction under an advisory lock of the database, so processes starting
/// at once on an empty database make it once: the others wait, then find it made.
package enum PostgresSchemaSetup {
  /// The advisory lock taken while the schemas are checked and made ("authflow" in ASCII).
  static let lockKey: Int64 = 0x6175_7468_666C_6F77

  /// Checks the database on `connection` and makes what is missing.
  @discardableResult
  package static func prepare(
    _ connection: PostgresConnection
  ) throws(AccountStoreError) -> AuthSchemaOrigin {
    try connection.transaction(.readCommitted) { connection throws(AccountStoreError) in
      try connection.query("select pg_advisory_xact_lock($1)", .integer(lockKey))
      let origin = try authSchemaOrigin(connection)
      if origin == .madeNow {
        try connection.execute(GoTrueAuthSchema.creation)
      }
      try prepareAuthflowSchema(connection, madeAuth: origin == .madeNow)
      return origin
    }
  }

  /// `.madeNow` when `auth` is missing or empty (to be made), `.existing` when it holds
  /// GoTrue's migrations; throws for anything else.
  private static func authSchemaOrigin(
    _ connection: PostgresConnection
  ) throws(AccountStoreError) -> AuthSchemaOrigin {
    let objects = try connection.first(
      """
      select (select count(*) from pg_class c where c.relnamespace = n.oid)
        + (select count(*) from pg_type t where t.typnamespace = n.oid)
        + (select count(*) from pg_proc p where p.pronamespace = n.oid)
      from pg_namespace n where n.nspname = 'auth'
      """
    ) { row throws(AccountStoreError) in try row.int64(0) }
    guard let objects, objects > 0 else { return .madeNow }
    let hasMigrations = try connection.first(
      "select to_regclass('auth.schema_migrations') is not null"
    ) { row throws(AccountStoreError) in try row.bool(0) }
    if hasMigrations == true {
      let migrations = try connection.first("select count(*) from auth.schema_migrations") {
        row throws(AccountStoreError) in try row.int64(0)
      }
      if let migrations, migrations > 0 { return .existing }
    }
    throw AccountStoreError(
      .failed,
      "the database's auth schema holds objects but no GoTrue migrations "
        + "(auth.schema_migrations is missing or empty), so it is left alone; "
        + "use an empty database or one that GoTrue migrated")
  }

  /// Makes authflow's schema when missing, and checks that no newer authflow made it.
  private static func prepareAuthflowSchema(
    _ connection: PostgresConnection, madeAuth: Bool
  ) throws(AccountStoreError) {
    let exists = try connection.first(
      "select to_regclass('authflow.schema_version') is not null"
        + " and to_regclass('authflow.meta') is not null"
    ) { row throws(AccountStoreError) in try row.bool(0) }
    if exists != true {
      try connection.execute(AuthflowSchema.creation)
    }
    for function in AuthflowSchema.functionUpdates {
      let body = try connection.first(
        "select prosrc from pg_proc where oid = to_regprocedure($1)", .text(function.signature)
      ) { row throws(AccountStoreError) in try row.text(0) }
      if body != function.body { try connection.execute(function.definition) }
    }
    if madeAuth {
      try connection.query(
        "insert into authflow.meta (key, value) values ($1, $2) on conflict (key) do nothing",
        .text(AuthflowSchema.authMadeByKey),
        .bytes(Array("authflow, as GoTrue \(GoTrueAuthSchema.gotrueCommit) makes it".utf8)))
    }
    let found = try connection.first("select max(version) from authflow.schema_version") {
      row throws(AccountStoreError) in try row.optionalInt64(0)
    }
    if let found = found ?? nil, found > AuthflowSchema.version {
      throw AccountStoreError(
        .failed,
        "the database's authflow schema has version \(found) but this authflow reads up to "
          + "\(AuthflowSchema.version); upgrade authflow")
    }
  }
}
