import AuthCrypto
import Clocks
import GoTrue

/// Brings a store to the current schema, creating the secrets and demo accounts of a new one.
struct StoreMigrator {
  let database: SQLiteDatabase
  package let configuration: EngineConfiguration
  package let clock: any AuthClock
  package let random: any RandomSource
  /// Where the store's signing secret comes from (``EmbeddedGoTrue/secretRandom``).
  package let secretRandom: any RandomSource

  func migrate() throws {
    let version = try userVersion()
    guard version < Schema.currentVersion else {
      if version > Schema.currentVersion {
        throw EmbeddedStoreError.newerSchema(found: version, supported: Schema.currentVersion)
      }
      return
    }
    // Hash before taking the write lock: bcrypt is slow by design.
    let seed =
      version == 0
      ? try NewStoreSeed(configuration: configuration, random: random, secretRandom: secretRandom)
      : nil
    // Some versions rebuild a table (create the new one, copy, drop the old, rename), which with
    // foreign keys on would delete every row that refers to the old one. SQLite's procedure:
    // foreign keys off outside the transaction, checked before it commits, on again after.
    try database.execute("PRAGMA foreign_keys = OFF")
    defer { try? database.execute("PRAGMA foreign_keys = ON") }
    try database.transaction {
      // Another process may have migrated while this one was hashing.
      let current = try userVersion()
      guard current < Schema.currentVersion else { return }
      // A new store gets the current schema at once, an older one each migration in turn.
      if current == 0 {
        try database.execute(Schema.created)
      } else {
        for migration in Schema.migrations[current...] { try database.execute(migration) }
      }
      // A row left referring to nothing is what a cascade would have deleted: delete it.
      let orphans = try database.query(
        "PRAGMA foreign_key_check", row: { (table: $0.text(0), row: $0.optionalInt(1)) })
      for orphan in orphans {
        guard let row = orphan.row, Schema.tables.contains(orphan.table) else { continue }
        try database.run("DELETE FROM \(orphan.table) WHERE rowid = ?", .integer(row))
      }
      if current == 0, let seed { try seed.insert(into: database, now: clock.millis) }
      try database.execute("PRAGMA user_version = \(Schema.currentVersion)")
      try database.execute("PRAGMA application_id = \(StoreOpener.applicationID)")
    }
  }

  private func userVersion() throws -> Int {
    try database.first("PRAGMA user_version", row: { Int($0.int(0)) }) ?? 0
  }
}

/// What a new store starts with: its secrets and the demo accounts.
private struct NewStoreSeed {
  var jwtSecret: [UInt8]
  var codeKey: [UInt8]
  package var decoyHash: String
  var demoAccounts: [(id: String, identity: String, email: String, hash: String, confirmed: Bool)]

  init(
    configuration: EngineConfiguration, random: any RandomSource, secretRandom: any RandomSource
  ) throws {
    jwtSecret = secretRandom.bytes(32)
    codeKey = random.bytes(32)
    let cost = configuration.hashCost
    let prehashed = DemoAccounts.prehashed[cost]
    decoyHash = try Self.hash(random.token(byteCount: 16), cost: cost, prehashed?.decoy, random)
    demoAccounts = []
    if configuration.seedsDemoAccounts {
      for (email, password, confirmed, prehashed) in [
        (
          DemoAccounts.confirmed.email, DemoAccounts.confirmed.password, true,
          prehashed?.confirmed
        ),
        (
          DemoAccounts.unconfirmed.email, DemoAccounts.unconfirmed.password, false,
          prehashed?.unconfirmed
        ),
      ] {
        let hash = try Self.hash(password, cost: cost, prehashed, random)
        demoAccounts.append((random.uuidString(), random.uuidString(), email, hash, confirmed))
      }
    }
  }

  /// `password` hashed at `cost`; the hash made once for it at that cost when there is one
  /// (``DemoAccounts/prehashed``): a new store is then ready without three bcrypt rounds at
  /// start. The salt's bytes are drawn either way, so a seeded run's secrets are the same at
  /// every cost.
  private static func hash(
    _ password: String, cost: Int, _ prehashed: String?, _ random: any RandomSource
  ) throws -> String {
    guard let prehashed else { return try Bcrypt.hash(password, cost: cost, random: random) }
    _ = random.bytes(16)
    return prehashed
  }

  func insert(into database: SQLiteDatabase, now: Int64) throws {
    for (key, value) in [
      ("jwt_secret", jwtSecret), ("code_key", codeKey),
      ("decoy_hash:\(Bcrypt.cost(of: decoyHash) ?? 0)", Array(decoyHash.utf8)),
    ] {
      try database.run("INSERT INTO meta (key, value) VALUES (?, ?)", .text(key), .blob(value))
    }
    for account in demoAccounts {
      try DemoAccounts.insert(
        id: account.id, identity: account.identity, email: account.email, hash: account.hash,
        confirmed: account.confirmed, into: database, now: now)
    }
  }
}

extension DemoAccounts {
  /// Adds a demo account as a new store has it: no confirmation code sent, no sign-in yet.
  static func insert(
    id: String, identity: String, email: String, hash: String, confirmed: Bool,
    into database: SQLiteDatabase, now: Int64
  ) throws {
    let metadata = UserRecord.identityClaims(
      id: id, email: email, confirmed: confirmed, extra: [:])
    try database.run(
      """
      INSERT INTO users (id, email, encrypted_password, email_confirmed_at,
        confirmation_sent_at, created_at, updated_at, identity_id, user_metadata)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
      """,
      .text(id), .text(email), .text(hash), confirmed ? .integer(now) : .null,
      confirmed ? .null : .integer(now), .integer(now), .integer(now), .text(identity),
      .text(UserRecord.encodeMetadata(metadata)))
  }
}
