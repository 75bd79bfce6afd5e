import GoTrue

/// One account a users file asks for, in either format: what the store is brought to when the
/// file is applied. Times are Unix milliseconds, as the store keeps them.
package struct SeedAccount: Equatable, Sendable {
  /// How the account signs in with a password.
  package enum Password: Equatable, Sendable, CustomStringConvertible {
    /// No password anyone knows (an account signing in otherwise, or not yet invited).
    case none
    /// A password given in the clear; hashed with bcrypt at the store's cost, never stored so.
    case plain(String)
    /// A bcrypt hash (`$2a$`, `$2b$` or `$2y$`), stored as it is.
    case bcrypt(String)

    /// The kind, never the password.
    package var description: String {
      switch self {
      case .none: "none"
      case .plain: "plain(…)"
      case .bcrypt: "bcrypt(…)"
      }
    }
  }

  /// The fixed id: a UUID (lowercase), or a Firebase `localId` of 1 to 128 characters.
  package var id: String
  /// The address, normalized; `nil` for an account without one.
  package var email: String?
  /// The phone number as the store keeps it (E.164's digits, no `+`); `nil` for none.
  package var phone: String?
  /// Whether the phone number is confirmed (GoTrue's `phone_confirm`; always so in Firebase).
  package var phoneConfirmed = false
  /// The password.
  package var password: Password = .none
  /// Whether the address is confirmed (GoTrue's `email_confirm`, Firebase's `emailVerified`).
  package var emailConfirmed = false
  /// GoTrue's `user_metadata`, kept as given.
  package var userMetadata: [String: JSONValue] = [:]
  /// GoTrue's `app_metadata`, over the email provider's `provider` and `providers`.
  package var appMetadata: [String: JSONValue] = [:]
  /// The role access tokens carry.
  package var role = "authenticated"
  /// Firebase's `displayName`.
  package var displayName: String?
  /// Firebase's `photoUrl`.
  package var photoURL: String?
  /// Firebase's `customAttributes`, as their JSON text; `nil` for none.
  package var customClaims: String?
  /// Whether the account is disabled (banned until year 9999).
  package var disabled = false
  /// When the account was made; `nil` keeps the store's (now, for a new account).
  package var createdAt: Int64?
  /// When the user last signed in; `nil` keeps the store's.
  package var lastSignInAt: Int64?

  /// An account with `id` and `email` and everything else at its default.
  package init(id: String, email: String?) {
    self.id = id
    self.email = email
  }

  /// Whether the account has neither address nor number (an anonymous user's).
  package var isAnonymous: Bool { email == nil && phone == nil }
}
