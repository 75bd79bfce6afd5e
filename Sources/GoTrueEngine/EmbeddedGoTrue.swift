import AccountStore
import AuthCrypto
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
  public let outbox: Outbox
  /// The text messages the engine (and the Firebase surface over it) has sent in this process,
  /// numbered with the emails (``MessageNumbers``).
  public let smsOutbox: SMSOutbox
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
  /// The accounts, in the store `location` names.
  package let store: any AccountStoring
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
    let numbers = MessageNumbers()
    outbox = Outbox(numbers: numbers)
    smsOutbox = SMSOutbox(numbers: numbers)
    self.location = location
    self.hooks = hooks
    self.configuration = configuration
    self.clock = clock
    self.random = random
    let secretRandom = secretRandom ?? random
    self.secretRandom = secretRandom
    let store = try location.open {
      let seed = try NewStoreSeed(
        configuration: configuration, random: random, secretRandom: secretRandom)
      return { accounts throws(AccountStoreError) in
        try seed.insert(into: accounts, now: clock.millis)
      }
    }
    self.store = store
    warnings = store.warnings
    secrets = try Self.loadSecrets(store, configuration: configuration, random: random)
    tokenKeys = TokenKeys(
      secret: secrets.jwt, keyID: configuration.jwtKeyID, keys: configuration.jwtKeys,
      validMethods: configuration.jwtValidMethods)
  }

  private static func loadSecrets(
    _ store: any AccountStoring, configuration: EngineConfiguration, random: any RandomSource
  ) throws(EmbeddedStoreError) -> Secrets {
    func value(_ key: String) throws(EmbeddedStoreError) -> [UInt8] {
      let stored = try unreadable(store) { () throws(AccountStoreError) in
        try store.withAccounts {
          (accounts: Accounts<AccountStoreError>) throws(AccountStoreError) in
          try accounts.secret(key)
        }
      }
      guard let value = stored else {
        throw EmbeddedStoreError.unreadable("meta", "the store has no \(key)")
      }
      return value
    }
    let jwt: [UInt8]
    if let configured = configuration.jwtSecret {
      jwt = configured
    } else {
      jwt = try value("jwt_secret")
    }
    return Secrets(
      jwt: jwt, codes: try value("code_key"),
      decoyHash: try decoyHash(cost: configuration.hashCost, store, random: random))
  }

  /// A decoy hash at `cost`: the one the store has, or one made now (once per store and cost,
  /// when a run uses a cost the store has not seen).
  private static func decoyHash(cost: Int, _ store: any AccountStoring, random: any RandomSource)
    throws(EmbeddedStoreError) -> String
  {
    let stored = try unreadable(store) { () throws(AccountStoreError) in
      try store.withAccounts {
        (accounts: Accounts<AccountStoreError>) throws(AccountStoreError) in
        try accounts.decoyHashes()
      }
    }
    if let decoy = stored.first(where: { Bcrypt.cost(of: $0) == cost }) { return decoy }
    // The one made in advance for this cost (a new store takes it too), else one hashed outside
    // the write lock: bcrypt is slow by design.
    let decoy: String
    do {
      decoy =
        try DemoAccounts.prehashed[cost]?.decoy
        ?? Bcrypt.hash(random.token(byteCount: 16), cost: cost, random: random)
    } catch {
      throw .unusableConfiguration("bcrypt cannot hash at cost \(cost) (\(error))")
    }
    return try unreadable(store) { () throws(AccountStoreError) in
      try store.write {
        (accounts: Accounts<AccountStoreError>) throws(AccountStoreError) in
        try accounts.addDecoyHash(decoy, cost: cost)
      }
    }
  }

  /// `body`'s answer, its store's failure said as a store that cannot be read.
  private static func unreadable<T>(
    _ store: any AccountStoring, _ body: () throws(AccountStoreError) -> T
  ) throws(EmbeddedStoreError) -> T {
    do {
      return try body()
    } catch {
      throw .unreadable(store.location.description, error.message)
    }
  }

  // MARK: Shared helpers

  /// The engine's clock in Unix milliseconds, the unit of every time in the store.
  package var nowMillis: Int64 { clock.millis }

  /// Runs `body` with the store, outside a transaction (reads).
  package func withDatabase<T: Sendable>(_ body: (EngineAccounts) throws(GoTrueAPIError) -> T)
    throws(GoTrueFailure) -> T
  {
    do {
      return try store.withAccounts(body)
    } catch {
      throw .api(error)
    }
  }

  /// ``withDatabase(_:)`` for rules that throw errors of their own (the Firebase surface's),
  /// turning the engine's and the store's into GoTrue's.
  package func withDatabaseThrowingAny<T: Sendable>(_ body: (EngineAccounts) throws -> T)
    throws(GoTrueFailure) -> T
  {
    do {
      return try store.withAccounts(as: GoTrueAPIError.self) { accounts in try body(accounts) }
    } catch {
      throw Self.failure(error)
    }
  }

  /// Runs `body` in one write transaction, for rules that throw errors of their own (the
  /// Firebase surface's), turning the engine's and the store's into GoTrue's.
  package func writeThrowingAny<T: Sendable>(_ body: (EngineAccounts) throws -> T)
    throws(GoTrueFailure) -> T
  {
    do {
      return try store.write(as: GoTrueAPIError.self) { accounts in try body(accounts) }
    } catch {
      throw Self.failure(error)
    }
  }

  /// What the engine answers for `error`, thrown by its rules or by the store.
  static func failure(_ error: any Error) -> GoTrueFailure {
    switch error {
    case let error as GoTrueAPIError: .api(error)
    case let error as GoTrueFailure: error
    case let error as AccountStoreError: .api(error.apiError)
    case let error as SQLiteError: .api(error.storeError.apiError)
    case is CancellationError: .transport("cancelled")
    default: .api(GoTrueAPIError(status: 500, code: .unexpectedFailure, message: "\(error)"))
    }
  }

  /// Runs one request in a write transaction: takes a request from `budget`'s bucket, then runs
  /// `body` inside a savepoint. An API error from `body` undoes the body's writes but keeps the
  /// spent request, as GoTrue's limiter counts failed attempts too. When no request was spent
  /// (no budget, or one without a limit), a refusal undoes the whole transaction instead: the
  /// same outcome, two statements fewer.
  package func answer<T: Sendable>(
    spending budget: KeyPath<EngineConfiguration.RateLimits, EngineConfiguration.Budget>?,
    for account: String? = nil,
    _ body: (EngineAccounts, Int64) throws(GoTrueAPIError) -> T
  ) throws(GoTrueFailure) -> T {
    let now = nowMillis
    let outcome: Result<T, GoTrueAPIError>
    do throws(GoTrueAPIError) {
      outcome = try store.write {
        (accounts: EngineAccounts) throws(GoTrueAPIError) -> Result<T, GoTrueAPIError> in
        let spends =
          budget.map {
            (account == nil
              ? configuration.rateLimits[keyPath: $0] : configuration.rateLimits.verify)
              .isLimited
          } ?? false
        guard spends else { return .success(try body(accounts, now)) }
        if let budget {
          let limits = limiter(accounts, now)
          if let account {
            // Checks of one account's codes: guessing at one account blocks no other.
            try limits.consume(
              limits.bucket("verify", for: account), budget: configuration.rateLimits.verify)
          } else {
            try limits.consume(budget)
          }
        }
        do throws(GoTrueAPIError) {
          return .success(
            try accounts.undoingOnFailure { () throws(GoTrueAPIError) in try body(accounts, now) })
        } catch {
          // A refusal of the rules keeps the spent request; the store's failure ends it all.
          if error.isStoreFailure { throw error }
          return .failure(error)
        }
      }
    } catch {
      throw .api(error)
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
    try withDatabase { accounts throws(GoTrueAPIError) in try accounts.userCount() }
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

extension AccountStoreError {
  /// The failure as GoTrue answers a storage problem: 503, with the kind in the wire code.
  package var apiError: GoTrueAPIError {
    let code: GoTrueErrorCode =
      switch kind {
      case .readOnly: .storeReadOnly
      case .full: .storeFull
      case .damaged: .storeDamaged
      case .unavailable, .conflict: .storeUnavailable
      case .failed: .unexpectedFailure
      }
    return GoTrueAPIError(status: 503, code: code, message: "store: \(message)")
  }
}

/// The accounts as the engine's rules see them: every failure of the store a GoTrue answer.
package typealias EngineAccounts = Accounts<GoTrueAPIError>

extension GoTrueAPIError: StoreFailure {
  /// The store's failure as GoTrue answers one (``AccountStoreError/apiError``).
  package init(store error: AccountStoreError) {
    self = error.apiError
  }

  /// Whether the store failed (a 503 in a `store_*` code, or its unexpected failure).
  package var isStoreFailure: Bool {
    status == 503
      && [.storeReadOnly, .storeFull, .storeDamaged, .storeUnavailable, .unexpectedFailure]
        .contains(code)
  }
}
