import AccountStore
import AuthCrypto

/// What a new store starts with: its secrets and the demo accounts.
struct NewStoreSeed {
  var jwtSecret: [UInt8]
  var codeKey: [UInt8]
  package var decoyHash: String
  var demoAccounts: [(id: String, identity: String, email: String, hash: String, confirmed: Bool)]

  init(
    configuration: EngineConfiguration, random: any RandomSource, secretRandom: any RandomSource
  ) throws(Bcrypt.Failure) {
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
  ) throws(Bcrypt.Failure) -> String {
    guard let prehashed else { return try Bcrypt.hash(password, cost: cost, random: random) }
    _ = random.bytes(16)
    return prehashed
  }

  func insert(into accounts: Accounts<AccountStoreError>, now: Int64) throws(AccountStoreError) {
    try accounts.setSecret("jwt_secret", jwtSecret)
    try accounts.setSecret("code_key", codeKey)
    _ = try accounts.addDecoyHash(decoyHash, cost: Bcrypt.cost(of: decoyHash) ?? 0)
    for account in demoAccounts {
      try DemoAccounts.insert(
        id: account.id, identity: account.identity, email: account.email, hash: account.hash,
        confirmed: account.confirmed, into: accounts, now: now)
    }
  }
}

extension DemoAccounts {
  /// Adds a demo account as a new store has it: no confirmation code sent, no sign-in yet.
  static func insert<Failure: StoreFailure>(
    id: String, identity: String, email: String, hash: String, confirmed: Bool,
    into accounts: Accounts<Failure>, now: Int64
  ) throws(Failure) {
    let metadata = UserRecord.identityClaims(
      id: id, email: email, confirmed: confirmed, extra: [:])
    var user = NewUser(id: id, email: email, passwordHash: hash, identityID: identity, now: now)
    user.emailConfirmedAt = confirmed ? now : nil
    user.confirmationSentAt = confirmed ? nil : now
    user.userMetadata = metadata
    try accounts.insertUser(user)
  }
}
