/// A change to an account (`accounts:update`). A user may change their email, password and
/// profile; an admin also whether the email is verified, whether the account is disabled, its
/// phone number, custom claims, times and `validSince`.
package struct FirebaseAccountChanges: Equatable, Sendable {
  /// A new email (verified again from scratch).
  package var email: String?
  /// A new password.
  package var password: String?
  /// A new display name.
  package var displayName: String?
  /// A new photo URL.
  package var photoURL: String?
  /// Whether the email is verified (admins only).
  package var emailVerified: Bool?
  /// Whether the account is disabled (admins only; `OPERATION_NOT_ALLOWED` with an ID token).
  package var disabled: Bool?
  /// Tokens issued before this second are refused (Unix seconds). An admin's value is kept;
  /// from a user, any value moves `validSince` to now, as in the emulator.
  package var validSince: Int64?
  /// The custom claims as JSON text (`customAttributes`, admins only), checked already
  /// (``FirebaseCustomClaims/parse(serialized:)``).
  package var customAttributes: String?
  /// When the account was made, Unix milliseconds (admins only).
  package var createdAt: Int64?
  /// When the user last signed in, Unix milliseconds (admins only).
  package var lastLoginAt: Int64?
  /// A new phone number, E.164 with its `+`, as sent (admins only; checked by the change).
  package var phoneNumber: String?
  /// Removes the display name (`deleteAttribute: DISPLAY_NAME`).
  package var deleteDisplayName = false
  /// Removes the photo URL (`deleteAttribute: PHOTO_URL`).
  package var deletePhotoURL = false
  /// Removes the password (`deleteAttribute: PASSWORD`): none anyone knows is left.
  package var deletePassword = false
  /// Removes the email, its verification and sign-in by link (`deleteAttribute: EMAIL`).
  package var deleteEmail = false
  /// The providers to unlink (`deleteProvider`): `password` removes the email and the
  /// password, `phone` the phone number, another (`google.com`, …) its linked entry.
  package var deletedProviders: [String] = []

  /// No change.
  package init() {}
}

/// The account an `accounts:update` changes.
package enum FirebaseAccountTarget: Equatable, Sendable {
  /// The user of an ID token.
  case idToken(String)
  /// The account with this id (an admin's `localId`).
  case id(String)
}

/// What `accounts:update` did: the account, the new session when the change moved
/// `validSince` and the session's provider is known, and the email asked for.
package struct FirebaseAccountUpdate: Equatable, Sendable {
  /// The account as it now stands.
  package var account: FirebaseAccount
  /// New tokens, when the emulator gives them.
  package var session: FirebaseSession?
  /// The email the request asked for, lowercased (the answer's `newEmail`).
  package var newEmail: String?
}
