import AccountStore
import GoTrue

/// Anonymous users, as GoTrue has them (`internal/api/anonymous.go`): a `POST /signup` with
/// neither email nor phone makes a user with no address and no identity, signed in at once;
/// confirming an address later (`PUT /user` with an email, then its link or code) makes the
/// same user permanent.
extension EmbeddedGoTrue {
  /// `POST /signup` with neither email nor phone, with anonymous sign-ins on: a new anonymous
  /// user, whose `user_metadata` is `data`, and its session (`amr` `anonymous`).
  @concurrent
  package func signUpAnonymously(data: [String: JSONValue]) async throws(GoTrueFailure)
    -> GoTrueSession
  {
    try checkSignupsAllowed()
    let session = try answer(spending: nil) { database, now throws(GoTrueAPIError) in
      let user = try insertUserWithoutAddress(anonymous: true, data: data, database, now: now)
      try checkTokenFits(user)
      return try createSession(for: user, method: .anonymous, in: database, now: now)
    }
    return try await withHookClaims(session, method: "anonymous", isNew: true)
  }

  /// Inserts a user signed in at `now` with no address, no identity, no provider and no
  /// password anyone knows (the decoy hash): an anonymous user, or (`anonymous` false) one
  /// known only by its id, as the Firebase surface makes them (a custom token's user, an
  /// admin's account without an email). `id` is a new UUID unless given. Call inside a write
  /// transaction.
  package func insertUserWithoutAddress(
    id: String? = nil, anonymous: Bool, data: [String: JSONValue] = [:],
    _ database: EngineAccounts, now: Int64
  ) throws(GoTrueAPIError) -> UserRecord {
    let id = id ?? random.uuidString()
    var user = NewUser(
      id: id, email: nil, passwordHash: secrets.decoyHash, identityID: nil, now: now)
    user.lastSignInAt = now
    user.userMetadata = data
    user.appMetadata = [:]
    user.isAnonymous = anonymous
    return try database.insertUser(user)
  }

  /// Makes anonymous `user` permanent once an address of theirs is confirmed: an email
  /// identity, the email provider in `app_metadata` (GoTrue's `UpdateAppMetaDataProviders`),
  /// and `is_anonymous` false. Call inside the write transaction that set the address.
  package func makePermanent(_ user: UserRecord, _ database: EngineAccounts, now: Int64)
    throws(GoTrueAPIError)
  {
    let providers: [String: JSONValue] = [
      "provider": .string("email"), "providers": .array([.string("email")]),
    ]
    try database.updateUser(
      user.id,
      [
        .isAnonymous(false), .identityID(random.uuidString(), keepingAny: true),
        .appMetadata(UserRecord.merging(providers, into: user.appMetadata)), .updatedAt(now),
      ])
  }
}
