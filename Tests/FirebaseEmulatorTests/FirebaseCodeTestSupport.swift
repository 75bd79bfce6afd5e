import GoTrue
import IdentityToolkit
import Testing

@testable import AccountStore
@testable import FirebaseEmulator
@testable import GoTrueEngine

extension FirebaseCodeRequest {
  /// A `sendOobCode` request of `type` with the given fields.
  static func of(
    _ type: String?, email: String? = nil, newEmail: String? = nil, idToken: String? = nil,
    continueURL: String? = nil, returnLink: Bool = false, privileged: Bool = false
  ) -> Self {
    var request = FirebaseCodeRequest()
    request.type = type
    request.email = email
    request.newEmail = newEmail
    request.idToken = idToken
    request.continueURL = continueURL
    request.returnLink = returnLink
    request.privileged = privileged
    return request
  }
}

extension FirebaseEmulation {
  /// Sends `request` and answers the code it made, failing the test when it made none.
  func sentCode(_ request: FirebaseCodeRequest) throws -> FirebaseOutOfBandCode {
    try #require(try sendCode(request).code)
  }

  /// An `EMAIL_SIGNIN` code for `email`, mailed.
  func emailSignInCode(_ email: String) throws -> FirebaseOutOfBandCode {
    try sentCode(.of("EMAIL_SIGNIN", email: email))
  }

  /// A `PASSWORD_RESET` code for `email`, as an admin's `returnOobLink` makes it (not mailed).
  func resetCode(_ email: String) throws -> FirebaseOutOfBandCode {
    try sentCode(.of("PASSWORD_RESET", email: email, returnLink: true, privileged: true))
  }
}

extension FirebaseEmulation {
  /// Moves account `id` to `email` as `accounts:update` does (the other half of that change is
  /// not this file's), recording the change as the emulator does: `initialEmail` and a
  /// `RECOVER_EMAIL` code, listed and mailed once the write commits.
  func changeEmail(of id: String, to email: String, anonymous: Bool = false) throws {
    let issued = try write { database, now in
      let old = try existingUser(id, database).email
      try database.run("UPDATE users SET email = ? WHERE id = ?", .text(email), .text(id))
      try setEmailVerified(false, of: id, database, now: now)
      return try recordEmailChange(
        ofUser: id, from: old, to: email, anonymous: anonymous, database, now: now)
    }
    publish(issued.map { [$0] } ?? [])
  }
}

extension EmbeddedGoTrue {
  /// The first column of each row of `sql`, as text.
  func column(_ sql: String) throws -> [String] { try rows(sql).map { $0[0] } }

  /// Runs `sql` against the store.
  func execute(_ sql: String) throws {
    try withDatabase { database throws(GoTrueAPIError) in try database.run(sql) }
  }
}

/// `error`'s `501` for `type`, as the emulator's `NotImplementedError` says it.
func notImplemented(_ type: String) -> IdentityToolkitError {
  IdentityToolkitError(status: 501, message: type, statusName: "NOT_IMPLEMENTED")
}
