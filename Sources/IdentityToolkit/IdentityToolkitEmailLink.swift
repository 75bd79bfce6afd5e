extension IdentityToolkitErrorCode {
  /// `sendOobCode` for `VERIFY_AND_CHANGE_EMAIL` came without `newEmail`.
  public static let missingNewEmail: Self = "MISSING_NEW_EMAIL"
  /// `newEmail` is not an address.
  public static let invalidNewEmail: Self = "INVALID_NEW_EMAIL"
}

/// What `accounts:signInWithEmailLink` answers: the user, whether the link made the account,
/// and a session.
public struct IdentityToolkitEmailLinkSignIn: Codable, Equatable, Hashable, Sendable,
  EmulatorEncodable
{
  /// `identitytoolkit#EmailLinkSigninResponse`.
  public var kind: String?
  /// The email signed in with, lowercased.
  public var email: String
  /// The user's id.
  public var localId: String
  /// Whether the link made the account.
  public var isNewUser: Bool
  /// The ID token (a JWT).
  public var idToken: String
  /// The refresh token.
  public var refreshToken: String
  /// Seconds the ID token lives, as a string (`"3600"`).
  public var expiresIn: String

  /// An answer with the given parts.
  public init(
    kind: String? = "identitytoolkit#EmailLinkSigninResponse", email: String, localId: String,
    isNewUser: Bool, idToken: String, refreshToken: String, expiresIn: String
  ) {
    self.kind = kind
    self.email = email
    self.localId = localId
    self.isNewUser = isNewUser
    self.idToken = idToken
    self.refreshToken = refreshToken
    self.expiresIn = expiresIn
  }

  /// `kind`, `email`, `localId`, `isNewUser`, then the tokens, as the emulator orders them.
  public var emulatorJSON: EmulatorJSON {
    .members([
      "kind": .maybe(kind), "email": .string(email), "localId": .string(localId),
      "isNewUser": .bool(isNewUser), "idToken": .string(idToken),
      "refreshToken": .string(refreshToken), "expiresIn": .string(expiresIn),
    ])
  }
}
