import GoTrueEngine

/// The out-of-band codes the emulation makes, by the emulator's `requestType`.
package enum FirebaseCodeType: String, CaseIterable, Equatable, Sendable {
  /// Resets a forgotten password (`mode=resetPassword`).
  case passwordReset = "PASSWORD_RESET"
  /// Verifies the account's email (`mode=verifyEmail`).
  case verifyEmail = "VERIFY_EMAIL"
  /// Moves the account to a new email, verified by the code (`mode=verifyAndChangeEmail`).
  case verifyAndChangeEmail = "VERIFY_AND_CHANGE_EMAIL"
  /// Signs in by email link, making the account if there is none (`mode=signIn`).
  case emailSignIn = "EMAIL_SIGNIN"
  /// Takes an account back to the email it had before a change (`mode=recoverEmail`).
  case recoverEmail = "RECOVER_EMAIL"

  /// The mode of the link that carries it.
  package var mode: String {
    switch self {
    case .passwordReset: "resetPassword"
    case .verifyEmail: "verifyEmail"
    case .verifyAndChangeEmail: "verifyAndChangeEmail"
    case .emailSignIn: "signIn"
    case .recoverEmail: "recoverEmail"
    }
  }

  /// The outbox's kind for its email.
  var mailKind: OutboxMessage.Kind {
    switch self {
    case .passwordReset: .recovery
    case .verifyEmail: .confirmation
    case .emailSignIn: .magicLink
    case .verifyAndChangeEmail, .recoverEmail: .emailChange
    }
  }
}

/// A code as the emulator lists it: the address it concerns, its type, the code and its link.
package struct FirebaseOutOfBandCode: Equatable, Sendable {
  /// The address it concerns (for `VERIFY_AND_CHANGE_EMAIL`, the account's current one).
  package var email: String
  /// The address a `VERIFY_AND_CHANGE_EMAIL` code moves the account to.
  package var newEmail: String?
  /// What it does.
  package var type: FirebaseCodeType
  /// The code.
  package var code: String
  /// The link that carries it.
  package var link: String

  /// A listing entry with the given parts.
  package init(
    email: String, newEmail: String? = nil, type: FirebaseCodeType, code: String, link: String
  ) {
    self.email = email
    self.newEmail = newEmail
    self.type = type
    self.code = code
    self.link = link
  }
}
