import AuthCrypto
import CSQLite
import Clocks
import GoTrue
import PrivateFiles

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A GoTrue-compatible auth engine on a SQLite file: the backend a user gets with no set-up.
///
/// It answers with GoTrue's shapes, codes and defaults, so the app behaves as it will against
/// Supabase. Several processes may share one store: writes take `BEGIN IMMEDIATE` transactions
/// and wait on SQLite's busy timeout. Password hashing runs outside any transaction.
public final class EmbeddedGoTrue: GoTrueAPI {
  /// How the engine behaves.
  public let configuration: EngineConfiguration
  /// Where the accounts live.
  public let location: StoreLocation
  /// The emails the engine has sent in this process.
  public let outbox = Outbox()
  /// What opening the store changed to keep it safe (permissions made private), for the user.
  public let warnings: [String]
  /// Times the answers that must not tell who has an account (``AnswerPacer``).
  let pacer = AnswerPacer()
  /// Emails of such answers on their way to the send-email hook.
  let unansweredSends = BackgroundWork()
  /// GoTrue's auth hooks, when some are on (`authflow serve`'s HTTP hooks).
  package let hooks: (any AuthHookDispatcher)?

  package let clock: any AuthClock
  package let random: any RandomSource
  /// Where the secrets come from that must never be predictable, even in a seeded run: the
  /// signing secret, refresh tokens, TOTP secrets, pending second steps (`random` unless
  /// given; `authflow serve --seed` gives ``UnpredictableRandom``).
  package let secretRandom: any RandomSource
  let database: DatabaseLock
  package let secrets: Secrets
  /// What signs access tokens and checks bearer tokens: the secret, or GoTrue's `JWT_KEYS`.
  package let tokenKeys: TokenKeys

  /// The store's own secrets, created with it and kept in its `meta` table.
  package struct Secrets: Sendable {
    /// Signs access tokens (GoTrue's JWT secret).
    package var jwt: [UInt8]
    /// Keys the hashes of emailed codes and of email addresses.
    package var codes: [UInt8]
    /// A bcrypt hash checked when the email is unknown, so both cases cost one hash.
    package var decoyHash: String
  }

  /// Opens the store at `location`, creating and migrating it as needed; `hooks` calls GoTrue's
  /// auth hooks that are on. Secrets no one may predict come from `secretRandom` (`random`
  /// unless given).
  public init(
    location: StoreLocation, configuration: EngineConfiguration = EngineConfiguration(),
    clock: any AuthClock = SystemClock(), random: any RandomSource = SystemRandom(),
    secretRandom: (any RandomSource)? = nil, hooks: (any AuthHookDispatcher)? = nil
  ) throws(EmbeddedStoreError) {
    guard EngineConfiguration.hashCosts.contains(configuration.hashCost) else {
      throw .unusableConfiguration(
        "the hash cost \(configuration.hashCost) is outside \(EngineConfiguration.hashCosts)")
    }
    self.location = location
    self.hooks = hooks
    self.configuration = configuration
    self.clock = clock
    self.random = random
    let secretRandom = secretRandom ?? random
    self.secretRandom = secretRandom
    let opened = try StoreOpener.open(location)
    let database = opened.database
    warnings = opened.warnings
    do {
      try StoreMigrator(
        database: database, configuration: configuration, clock: clock, random: random,
        secretRandom: secretRandom
      )
      .migrate()
      secrets = try Self.loadSecrets(database, configuration: configuration, random: random)
    } catch let error as EmbeddedStoreError {
      throw error
    } catch let error as SQLiteError {
      throw EmbeddedStoreError.unreadable(location.description, error.message)
    } catch {
      throw EmbeddedStoreError.unreadable(location.description, "\(error)")
    }
    self.database = DatabaseLock(database)
    tokenKeys = TokenKeys(
      secret: secrets.jwt, keyID: configuration.jwtKeyID, keys: configuration.jwtKeys,
      validMethods: configuration.jwtValidMethods)
  }

  private static func loadSecrets(
    _ database: SQLiteDatabase, configuration: EngineConfiguration, random: any RandomSource
  ) throws -> Secrets {
    func value(_ key: String) throws -> [UInt8] {
      guard
        let value = try database.first(
          "SELECT value FROM meta WHERE key = ?", .text(key), row: { $0.blob(0) })
      else {
        throw EmbeddedStoreError.unreadable("meta", "the store has no \(key)")
      }
      return value
    }
    return Secrets(
      jwt: try configuration.jwtSecret ?? value("jwt_secret"), codes: try value("code_key"),
      decoyHash: try decoyHash(cost: configuration.hashCost, database, random: random))
  }

  /// A decoy hash at `cost`: the one the store has, or one made now (once per store and cost,
  /// when a run uses a cost the store has not seen).
  private static func decoyHash(cost: Int, _ database: SQLiteDatabase, random: any RandomSource)
    throws -> String
  {
    let stored = try database.query(
      "SELECT value FROM meta WHERE key LIKE 'decoy_hash%'",
      row: { String(decoding: $0.blob(0), as: UTF8.self) })
    if let decoy = stored.first(where: { Bcrypt.cost(of: $0) == cost }) { return decoy }
    // The one made in advance for this cost (a new store takes it too), else one hashed outside
    // the write lock: bcrypt is slow by design.
    let decoy =
      try DemoAccounts.prehashed[cost]?.decoy
      ?? Bcrypt.hash(random.token(byteCount: 16), cost: cost, random: random)
    try database.transaction {
      try database.run(
        "INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)", .text("decoy_hash:\(cost)"),
        .blob(Array(decoy.utf8)))
    }
    return try database.first(
      "SELECT value FROM meta WHERE key = ?", .text("decoy_hash:\(cost)"),
      row: { String(decoding: $0.blob(0), as: UTF8.self) }) ?? decoy
  }

  // MARK: Shared helpers

  /// The engine's clock in Unix milliseconds, the unit of every time in the store.
  package var nowMillis: Int64 { clock.millis }

  /// Runs `body` with the connection, turning engine failures into GoTrue's.
  package func withDatabase<T: Sendable>(_ body: (SQLiteDatabase) throws -> T) throws(GoTrueFailure)
    -> T
  {
    do {
      return try database.withLock { database in try body(database) }
    } catch let error as GoTrueAPIError {
      throw .api(error)
    } catch let error as GoTrueFailure {
      throw error
    } catch let error as SQLiteError {
      throw .api(error.apiError)
    } catch is CancellationError {
      throw .transport("cancelled")
    } catch {
      throw .api(GoTrueAPIError(status: 500, code: .unexpectedFailure, message: "\(error)"))
    }
  }

  /// Runs one request in a write transaction: takes a request from `budget`'s bucket, then runs
  /// `body` inside a savepoint. An API error from `body` undoes the body's writes but keeps the
  /// spent request, as GoTrue's limiter counts failed attempts too.
  package func answer<T: Sendable>(
    spending budget: KeyPath<EngineConfiguration.RateLimits, EngineConfiguration.Budget>?,
    for account: String? = nil,
    _ body: (SQLiteDatabase, Int64) throws -> T
  ) throws(GoTrueFailure) -> T {
    let now = nowMillis
    let outcome = try withDatabase { database -> Result<T, GoTrueAPIError> in
      try database.transaction {
        if let budget {
          let limits = limiter(database, now)
          if let account {
            // Checks of one account's codes: guessing at one account blocks no other.
            try limits.consume(
              limits.bucket("verify", for: account), budget: configuration.rateLimits.verify)
          } else {
            try limits.consume(budget)
          }
        }
        try database.execute("SAVEPOINT request")
        do {
          let value = try body(database, now)
          try database.execute("RELEASE request")
          return .success(value)
        } catch let error as GoTrueAPIError {
          try database.execute("ROLLBACK TO request; RELEASE request")
          return .failure(error)
        }
      }
    }
    switch outcome {
    case .success(let value): return value
    case .failure(let error): throw .api(error)
    }
  }

  /// Throws when the calling task was cancelled, before anything is committed.
  func checkCancellation() throws(GoTrueFailure) {
    if Task.isCancelled { throw .transport("cancelled") }
  }

  /// The number of accounts in the store.
  package func accountCount() throws(GoTrueFailure) -> Int {
    try withDatabase { database in
      try database.first("SELECT count(*) FROM users", row: { Int($0.int(0)) }) ?? 0
    }
  }
}

extension AuthClock {
  /// The time in Unix milliseconds, kept within years 1970 to 9999 whatever the clock says, so
  /// no arithmetic on stored times can overflow.
  var millis: Int64 {
    let millis = (now.timeIntervalSince1970 * 1_000).rounded()
    guard millis.isFinite else { return 0 }
    return Int64(min(max(millis, 0), 253_402_300_799_000))
  }
}

/// Why the store could not be opened.
public enum EmbeddedStoreError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A folder or file of the store could not be created.
  case cannotCreate(String, String)
  /// The file is not a usable store (not SQLite, damaged, unreadable).
  case unreadable(String, String)
  /// A newer authflow made the store.
  case newerSchema(found: Int, supported: Int)
  /// The configuration asks for something the engine does not do.
  case unusableConfiguration(String)
  /// The file is an SQLite database of another application.
  case foreignFile(String)
  /// The store's folder can be written by others, who could replace the store.
  case unsafeFolder(String)

  /// One line saying what is wrong and what would be right.
  public var description: String {
    switch self {
    case .cannotCreate(let path, let reason):
      "cannot create the store at \(path): \(reason); pass --store with a writable path"
    case .unreadable(let path, let reason):
      "cannot open the store \(path): \(reason); pass --store with an authflow store or a new path"
    case .newerSchema(let found, let supported):
      "the store has schema version \(found) but this authflow reads up to \(supported); upgrade authflow"
    case .unusableConfiguration(let reason):
      "the engine cannot run: \(reason)"
    case .foreignFile(let path):
      "\(path) is another application's SQLite file, left untouched; "
        + "pass --store with an authflow store or a new path"
    case .unsafeFolder(let folder):
      "others can write to \(folder), so they could replace the store; "
        + "use a folder only you can write (chmod go-w \(folder)) or another --store"
    }
  }
}
