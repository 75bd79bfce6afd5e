import AccountStore
import GoTrue
import GoTrueEngine
import IdentityToolkit

/// Changes of an account's address that codes make or record: moving to an address a code
/// proved, and the way back (`initialEmail` and its `RECOVER_EMAIL` code) that an email change
/// through `accounts:update` leaves.
extension FirebaseEmulation {
  /// Moves `user` to `email`, verified (a code sent there proved it): GoTrue's copy of the
  /// address in `user_metadata` follows, GoTrue's codes sent to the old address stop working,
  /// and an anonymous user becomes permanent. Call inside a write transaction, once no other
  /// account has `email`.
  func moveEmail(of user: UserRecord, to email: String, _ database: EngineAccounts, now: Int64)
    throws
  {
    var changes: [UserChange] = [.email(email), .newEmail(nil), .updatedAt(now)]
    if let metadata = user.userMetadata(withEmail: email) {
      changes.append(.userMetadata(metadata))
    }
    try database.updateUser(user.id, changes)
    try database.deleteUnusedCodes(ofUser: user.id, kinds: CodeKind.sentToTheAddress)
    try setEmailVerified(true, of: user.id, database, now: now)
    if user.isAnonymous { try engine.makePermanent(user, database, now: now) }
    try checkIDTokenFits(try existingUser(user.id, database))
  }

  /// What the emulator does when `accounts:update` changes an account's email: the account
  /// keeps its first email as `initialEmail` (set once, from `oldEmail`), and a
  /// `RECOVER_EMAIL` code that takes it back there is mailed to that first email (the
  /// emulator logs it) and listed. Neither happens for a change made with an anonymous user's
  /// ID token (`anonymous`), nor is an empty `oldEmail` kept.
  ///
  /// Call inside the write transaction that changed the address, after writing `newEmail`;
  /// hand the answer to ``publish(_:)`` once the transaction commits (the code must not be
  /// listed or mailed if it rolls back):
  ///
  /// ```swift
  /// let (account, recovery) = try write { database, now in
  ///   // … the new address written …
  ///   let recovery = try recordEmailChange(
  ///     ofUser: user.id, from: user.email, to: newEmail, anonymous: false, database, now: now)
  ///   return (try account(…), recovery)
  /// }
  /// publish(recovery.map { [$0] } ?? [])
  /// ```
  func recordEmailChange(
    ofUser id: String, from oldEmail: String, to newEmail: String, anonymous: Bool,
    _ database: EngineAccounts, now: Int64
  ) throws -> IssuedCode? {
    guard !anonymous, let user = try database.user(id: id) else { return nil }
    var initialEmail = user.initialEmail
    if initialEmail == nil, !oldEmail.isEmpty {
      initialEmail = oldEmail
      try database.updateUser(user.id, [.initialEmail(oldEmail)])
    }
    guard let initialEmail else { return nil }
    return try issue(
      CodeRecord(type: .recoverEmail, email: initialEmail, userID: user.id), mailed: true,
      changedTo: newEmail, database, now: now)
  }
}
