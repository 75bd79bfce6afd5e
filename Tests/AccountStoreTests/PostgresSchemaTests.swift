import Foundation
import PostgresTestSupport
import Synchronization
import Testing

@testable import AccountStore

/// GoTrue's `auth` schema made on an empty database, left alone on one GoTrue migrated, and
/// authflow's own schema beside it.
struct PostgresSchemaTests {
  @Test func anEmptyDatabaseGetsTheSchemaGoTrueMigrationsMake() throws {
    let connection = try connectToNewDatabase()
    #expect(try PostgresSchemaSetup.prepare(connection) == .madeNow)
    let made = try Self.catalog(connection)
    let gotrue = try fixture("gotrue-auth-catalog.txt").split(separator: "\n").map(String.init)
    #expect(made.count == 458)
    let missing = gotrue.filter { !made.contains($0) }
    let extra = made.filter { !gotrue.contains($0) }
    #expect(missing == [], "in GoTrue's schema only")
    #expect(extra == [], "in authflow's only")
    #expect(made == gotrue)
  }

  @Test func theTablesAndColumnsAreNamedAndTypedAsGoTrueHasThem() throws {
    let connection = try connectToNewDatabase()
    try PostgresSchemaSetup.prepare(connection)
    let tables = try connection.column(
      "select table_name from information_schema.tables where table_schema = 'auth'")
    for table in [
      "users", "identities", "sessions", "refresh_tokens", "mfa_factors", "mfa_challenges",
      "mfa_amr_claims", "flow_state", "one_time_tokens", "audit_log_entries", "schema_migrations",
      "instances",
    ] {
      #expect(tables.contains(table), "auth.\(table)")
    }
    let columns = try connection.texts(
      """
      select column_name, data_type, is_nullable, coalesce(column_default, ''), is_generated
      from information_schema.columns
      where table_schema = 'auth' and table_name = 'users'
        and column_name in ('id', 'email', 'encrypted_password', 'confirmed_at', 'is_sso_user',
          'raw_app_meta_data', 'phone', 'email_change_confirm_status')
      order by ordinal_position
      """)
    #expect(
      columns == [
        ["id", "uuid", "NO", "", "NEVER"],
        ["email", "character varying", "YES", "", "NEVER"],
        ["encrypted_password", "character varying", "YES", "", "NEVER"],
        ["raw_app_meta_data", "jsonb", "YES", "", "NEVER"],
        ["phone", "text", "YES", "NULL::character varying", "NEVER"],
        ["confirmed_at", "timestamp with time zone", "YES", "", "ALWAYS"],
        ["email_change_confirm_status", "smallint", "YES", "0", "NEVER"],
        ["is_sso_user", "boolean", "NO", "false", "NEVER"],
      ])
    let enums = try connection.column(
      """
      select t.typname || ': ' || string_agg(e.enumlabel, ' ' order by e.enumsortorder)
      from pg_type t join pg_enum e on e.enumtypid = t.oid
      where t.typnamespace = 'auth'::regnamespace and t.typname in
        ('aal_level', 'factor_type', 'factor_status', 'code_challenge_method', 'one_time_token_type')
      group by t.typname order by t.typname
      """)
    #expect(
      enums == [
        "aal_level: aal1 aal2 aal3", "code_challenge_method: s256 plain",
        "factor_status: unverified verified", "factor_type: totp webauthn phone",
        "one_time_token_type: confirmation_token reauthentication_token recovery_token "
          + "email_change_token_new email_change_token_current phone_change_token",
      ])
    #expect(
      try connection.column("select version from auth.schema_migrations order by version")
        == GoTrueAuthSchema.versions.sorted())
    #expect(GoTrueAuthSchema.versions.count == 70)
  }

  @Test func theAPIRolesExistAndMayUseTheAuthSchema() throws {
    let connection = try connectToNewDatabase()
    try PostgresSchemaSetup.prepare(connection)
    let roles = try connection.texts(
      """
      select rolname, rolcanlogin::text, rolbypassrls::text,
        has_schema_privilege(rolname, 'auth', 'usage')::text
      from pg_roles where rolname in ('anon', 'authenticated', 'service_role') order by rolname
      """)
    #expect(
      roles == [
        ["anon", "false", "false", "true"], ["authenticated", "false", "false", "true"],
        ["service_role", "false", "true", "true"],
      ])
    let madeBy = try connection.first(
      "select value from authflow.meta where key = $1", .text(AuthflowSchema.authMadeByKey)
    ) { row throws(AccountStoreError) in String(decoding: try row.bytes(0), as: UTF8.self) }
    #expect(madeBy == "authflow, as GoTrue bc32168e makes it")
    #expect(try connection.column("select version from authflow.schema_version") == ["1"])
  }

  @Test func aSecondPreparationChangesNothing() throws {
    let connection = try connectToNewDatabase()
    try PostgresSchemaSetup.prepare(connection)
    let before = try Self.everything(connection)
    #expect(try PostgresSchemaSetup.prepare(connection) == .existing)
    #expect(try Self.everything(connection) == before)
  }

  @Test func twoProcessesPreparingAnEmptyDatabaseAtOnceBothSucceed() throws {
    let url = try makePostgresDatabase()
    let connections = [try PostgresConnection(url: url), try PostgresConnection(url: url)]
    let origins = Mutex<[Result<AuthSchemaOrigin, AccountStoreError>]>([])
    let ready = DispatchGroup()
    let go = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for connection in connections {
      ready.enter()
      done.enter()
      nonisolated(unsafe) let connection = connection
      Thread {
        ready.leave()
        go.wait()
        let origin = Result { () throws(AccountStoreError) in
          try PostgresSchemaSetup.prepare(connection)
        }
        origins.withLock { $0.append(origin) }
        done.leave()
      }.start()
    }
    ready.wait()
    go.signal()
    go.signal()
    #expect(done.wait(timeout: .now() + 60) == .success)
    let results = origins.withLock { $0 }
    #expect(results.count == 2)
    #expect(
      results.compactMap { try? $0.get() }.sorted { "\($0)" < "\($1)" } == [.existing, .madeNow])
    #expect(try Self.catalog(connections[0]).count == 458)
  }

  @Test func anEmptyAuthSchemaIsFilled() throws {
    let connection = try connectToNewDatabase()
    try connection.execute("create schema auth")
    #expect(try PostgresSchemaSetup.prepare(connection) == .madeNow)
    #expect(try Self.catalog(connection).count == 458)
  }

  @Test func aDatabaseGoTrueMigratedIsLeftAloneInAuth() throws {
    let connection = try connectToNewDatabase()
    try connection.execute(
      """
      create role gotrue_test_admin nologin;
      create schema auth authorization gotrue_test_admin;
      create table auth.schema_migrations (version varchar(255) not null primary key);
      insert into auth.schema_migrations values ('00'), ('20210710035447'), ('20260625000000');
      create table auth.users (id uuid primary key, email varchar(255));
      create table auth.sessions (id uuid primary key, user_id uuid references auth.users);
      create table auth.mfa_factors (id uuid primary key, user_id uuid references auth.users);
      create table auth.mfa_challenges (id uuid primary key, factor_id uuid);
      alter table auth.users owner to gotrue_test_admin;
      create function auth.uid() returns uuid language sql stable as $$ select null::uuid $$;
      grant usage on schema auth to public;
      """)
    let before = try Self.everything(connection)
    #expect(try PostgresSchemaSetup.prepare(connection) == .existing)
    #expect(try Self.everything(connection) == before)
    #expect(try connection.column("select version from authflow.schema_version") == ["1"])
    #expect(try connection.column("select count(*) from authflow.meta") == ["0"])
  }

  @Test func anAuthSchemaOfSomeoneElseIsRefusedAndNothingIsMade() throws {
    let connection = try connectToNewDatabase()
    try connection.execute("create schema auth; create table auth.accounts (id int)")
    let error = storeError { try PostgresSchemaSetup.prepare(connection) }
    #expect(error?.kind == .failed)
    #expect(
      error?.message
        == "the database's auth schema holds objects but no GoTrue migrations "
        + "(auth.schema_migrations is missing or empty), so it is left alone; "
        + "use an empty database or one that GoTrue migrated")
    #expect(try connection.column("select to_regnamespace('authflow') is null") == ["t"])
  }

  @Test func millisecondsAreInlinedAndAnswerAsExtractingTheEpochDoes() throws {
    let connection = try connectToNewDatabase()
    try PostgresSchemaSetup.prepare(connection)
    let times = [
      "1970-01-01 00:00:00+00", "2026-11-29 06:30:15.123456+00", "1969-12-31 23:59:59.999+00",
      "2000-02-29 12:00:00.5-08", "0001-01-01 00:00:00+00", "9999-12-31 23:59:59.999+00",
    ]
    for time in times {
      let answers = try connection.texts(
        "select authflow.ms($1::timestamptz), (extract(epoch from $1::timestamptz) * 1000)::bigint",
        .text(time))
      #expect(answers.count == 1 && answers[0][0] == answers[0][1], "\(time): \(answers)")
    }
    #expect(try connection.column("select authflow.ms(null)") == ["NULL"])
    // Inlined: the plan holds the function's expression, not a call of it.
    let plan = try connection.column(
      "explain (verbose, costs off) select authflow.ms(now() + random() * interval '1 s')")
    #expect(!plan.joined().contains("authflow.ms"), "\(plan)")
  }

  @Test func anEarlierDefinitionOfMillisecondsIsBroughtUpToDate() throws {
    let connection = try connectToNewDatabase()
    try PostgresSchemaSetup.prepare(connection)
    try connection.execute(
      "create or replace function authflow.ms(timestamptz) returns bigint language sql "
        + "immutable as $$ select (extract(epoch from $1) * 1000)::bigint $$")
    #expect(try PostgresSchemaSetup.prepare(connection) == .existing)
    let body = try connection.column(
      "select prosrc from pg_proc where oid = 'authflow.ms(timestamptz)'::regprocedure")
    #expect(body == [AuthflowSchema.millisecondsBody])
  }

  @Test func anAuthflowSchemaOfANewerVersionIsRefused() throws {
    let connection = try connectToNewDatabase()
    try PostgresSchemaSetup.prepare(connection)
    try connection.execute("insert into authflow.schema_version (version) values (2)")
    let error = storeError { try PostgresSchemaSetup.prepare(connection) }
    #expect(
      error?.message
        == "the database's authflow schema has version 2 but this authflow reads up to 1; "
        + "upgrade authflow")
  }

  /// The snapshot GoTrue's fixture was read with: the objects of `auth`, one line each.
  static func catalog(_ connection: PostgresConnection) throws -> [String] {
    try connection.column(fixture("catalog-snapshot.sql"))
  }

  /// The catalog, with owners and grants of the schema and its objects, and the migrations.
  static func everything(_ connection: PostgresConnection) throws -> [String] {
    try catalog(connection)
      + connection.column(
        """
        select 'schema ' || nspowner::regrole || ' ' || coalesce(nspacl::text, '')
        from pg_namespace where nspname = 'auth'
        union all
        select 'object ' || c.relname || ' ' || c.relowner::regrole || ' '
          || coalesce(c.relacl::text, '') || ' rls=' || c.relrowsecurity::text
        from pg_class c where c.relnamespace = 'auth'::regnamespace
        union all
        select 'function ' || p.proname || ' ' || p.proowner::regrole || ' '
          || coalesce(p.proacl::text, '')
        from pg_proc p where p.pronamespace = 'auth'::regnamespace
        union all
        select 'migration ' || version from auth.schema_migrations
        order by 1
        """)
  }
}
