#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What `accounts:signUp` and `accounts:signInWithPassword` answer: the user's id and a
/// session (an ID token and a refresh token).
public struct IdentityToolkitSignIn: Codable, Equatable, Hashable, Sendable {
  /// `identitytoolkit#SignupNewUserResponse` or `…#VerifyPasswordResponse`.
  public var kind: String?
  /// The user's id.
  public var localId: String
  /// The email, lowercased.
  public var email: String?
  /// The display name, when set.
  public var displayName: String?
  /// The ID token (a JWT).
  public var idToken: String
  /// The refresh token.
  public var refreshToken: String
  /// Seconds the ID token lives, as a string (`"3600"`).
  public var expiresIn: String
  /// Whether the email has an account (sign-in only).
  public var registered: Bool?

  /// An answer with the given parts.
  public init(
    kind: String?, localId: String, email: String?, displayName: String? = nil,
    idToken: String, refreshToken: String, expiresIn: String, registered: Bool? = nil
  ) {
    self.kind = kind
    self.localId = localId
    self.email = email
    self.displayName = displayName
    self.idToken = idToken
    self.refreshToken = refreshToken
    self.expiresIn = expiresIn
    self.registered = registered
  }
}

/// What Secure Token's `token` endpoint answers for a refresh.
public struct SecureTokenResponse: Codable, Equatable, Hashable, Sendable {
  /// The new ID token.
  public var idToken: String
  /// The same token, under OAuth's name.
  public var accessToken: String
  /// Seconds it lives, as a string.
  public var expiresIn: String
  /// The refresh token to use next.
  public var refreshToken: String
  /// `Bearer`.
  public var tokenType: String
  /// The user's id.
  public var userId: String
  /// The project's number (the emulator's is `12345`).
  public var projectId: String

  /// An answer with the given parts.
  public init(
    idToken: String, accessToken: String, expiresIn: String, refreshToken: String,
    tokenType: String = "Bearer", userId: String, projectId: String
  ) {
    self.idToken = idToken
    self.accessToken = accessToken
    self.expiresIn = expiresIn
    self.refreshToken = refreshToken
    self.tokenType = tokenType
    self.userId = userId
    self.projectId = projectId
  }

  enum CodingKeys: String, CodingKey {
    case idToken = "id_token"
    case accessToken = "access_token"
    case expiresIn = "expires_in"
    case refreshToken = "refresh_token"
    case tokenType = "token_type"
    case userId = "user_id"
    case projectId = "project_id"
  }
}

/// What a sign-in with a first factor answers for a user with a second factor: no tokens, but
/// the credential `accounts/mfaSignIn:finalize` takes with the factor's code.
public struct IdentityToolkitMFAPending: Codable, Equatable, Hashable, Sendable {
  /// The kind of the sign-in's answer.
  public var kind: String?
  /// The user's id.
  public var localId: String
  /// The email, lowercased.
  public var email: String?
  /// Whether the email has an account (password sign-in only).
  public var registered: Bool?
  /// Whether the sign-in made the account (email-link sign-in only).
  public var isNewUser: Bool?
  /// What the second step takes back.
  public var mfaPendingCredential: String
  /// The factors that may finish the sign-in.
  public var mfaInfo: [IdentityToolkitMFAEnrollment]

  /// An answer with the given parts.
  public init(
    kind: String?, localId: String, email: String?, registered: Bool? = nil,
    mfaPendingCredential: String, mfaInfo: [IdentityToolkitMFAEnrollment]
  ) {
    self.kind = kind
    self.localId = localId
    self.email = email
    self.registered = registered
    self.mfaPendingCredential = mfaPendingCredential
    self.mfaInfo = mfaInfo
  }
}

/// What `accounts/mfaSignIn:finalize` answers: the session's tokens.
public struct IdentityToolkitMFAFinalized: Codable, Equatable, Hashable, Sendable {
  /// The ID token.
  public var idToken: String
  /// The refresh token.
  public var refreshToken: String

  /// An answer with the given tokens.
  public init(idToken: String, refreshToken: String) {
    self.idToken = idToken
    self.refreshToken = refreshToken
  }
}

/// What `accounts:lookup` answers; `users` is absent when nothing matched.
public struct IdentityToolkitLookup: Codable, Equatable, Hashable, Sendable {
  /// `identitytoolkit#GetAccountInfoResponse`.
  public var kind: String?
  /// The users found.
  public var users: [IdentityToolkitUser]?

  /// An answer listing `users`.
  public init(
    kind: String? = "identitytoolkit#GetAccountInfoResponse", users: [IdentityToolkitUser]?
  ) {
    self.kind = kind
    self.users = users
  }
}

/// What `accounts:sendOobCode` answers (with the code and link only for an admin who asks).
public struct IdentityToolkitOobCode: Codable, Equatable, Hashable, Sendable {
  /// `identitytoolkit#GetOobConfirmationCodeResponse`.
  public var kind: String?
  /// The address the email went to.
  public var email: String?
  /// The code, for `returnOobLink`.
  public var oobCode: String?
  /// The link, for `returnOobLink`.
  public var oobLink: String?

  /// An answer with the given parts.
  public init(
    kind: String? = "identitytoolkit#GetOobConfirmationCodeResponse", email: String?,
    oobCode: String? = nil, oobLink: String? = nil
  ) {
    self.kind = kind
    self.email = email
    self.oobCode = oobCode
    self.oobLink = oobLink
  }
}

/// What `accounts:resetPassword` answers: the code's type and address.
public struct IdentityToolkitResetPassword: Codable, Equatable, Hashable, Sendable {
  /// `identitytoolkit#ResetPasswordResponse`.
  public var kind: String?
  /// The account's email (left out for an email sign-in code).
  public var email: String?
  /// The code's type, e.g. `PASSWORD_RESET`.
  public var requestType: String?
  /// The address a `VERIFY_AND_CHANGE_EMAIL` code moves the account to.
  public var newEmail: String?

  /// An answer with the given parts.
  public init(
    kind: String? = "identitytoolkit#ResetPasswordResponse", email: String?, requestType: String?,
    newEmail: String? = nil
  ) {
    self.kind = kind
    self.email = email
    self.requestType = requestType
    self.newEmail = newEmail
  }
}

/// What `accounts:update` answers: the user, and a new session when the change revoked the
/// old tokens (a new password or email).
public struct IdentityToolkitSetAccountInfo: Codable, Equatable, Hashable, Sendable {
  /// `identitytoolkit#SetAccountInfoResponse`.
  public var kind: String?
  /// The user's id.
  public var localId: String?
  /// The email.
  public var email: String?
  /// The display name.
  public var displayName: String?
  /// Whether the email is verified.
  public var emailVerified: Bool?
  /// The ways the user signs in.
  public var providerUserInfo: [IdentityToolkitProviderInfo]?
  /// The photo URL.
  public var photoUrl: String?
  /// The email the request asked for.
  public var newEmail: String?
  /// A new ID token, when the change revoked the old ones.
  public var idToken: String?
  /// A new refresh token, with it.
  public var refreshToken: String?
  /// Seconds the new ID token lives.
  public var expiresIn: String?
  /// The password hash as the answer shows it (a server redacts it).
  public var passwordHash: String?

  /// An answer with the given parts.
  public init(
    kind: String? = "identitytoolkit#SetAccountInfoResponse", localId: String?, email: String?,
    displayName: String? = nil, emailVerified: Bool?,
    providerUserInfo: [IdentityToolkitProviderInfo]? = nil, photoUrl: String? = nil,
    newEmail: String? = nil, idToken: String? = nil, refreshToken: String? = nil,
    expiresIn: String? = nil, passwordHash: String? = nil
  ) {
    self.kind = kind
    self.localId = localId
    self.email = email
    self.displayName = displayName
    self.emailVerified = emailVerified
    self.providerUserInfo = providerUserInfo
    self.photoUrl = photoUrl
    self.newEmail = newEmail
    self.idToken = idToken
    self.refreshToken = refreshToken
    self.expiresIn = expiresIn
    self.passwordHash = passwordHash
  }
}

/// A code the Auth emulator lists at `/emulator/v1/projects/{id}/oobCodes`.
public struct EmulatorOobCode: Codable, Equatable, Hashable, Sendable {
  /// The address it concerns (for `VERIFY_AND_CHANGE_EMAIL`, the account's current one).
  public var email: String
  /// The address a `VERIFY_AND_CHANGE_EMAIL` code moves the account to.
  public var newEmail: String?
  /// `VERIFY_EMAIL`, `PASSWORD_RESET`, …
  public var requestType: String
  /// The code.
  public var oobCode: String
  /// The link that carries it.
  public var oobLink: String

  /// A listing entry with the given parts.
  public init(
    email: String, newEmail: String? = nil, requestType: String, oobCode: String, oobLink: String
  ) {
    self.email = email
    self.newEmail = newEmail
    self.requestType = requestType
    self.oobCode = oobCode
    self.oobLink = oobLink
  }
}

/// The emulator's listing of codes.
public struct EmulatorOobCodes: Codable, Equatable, Hashable, Sendable {
  /// The codes, oldest first.
  public var oobCodes: [EmulatorOobCode]

  /// A listing of `oobCodes`.
  public init(oobCodes: [EmulatorOobCode]) {
    self.oobCodes = oobCodes
  }
}

/// The claims of a Firebase ID token the app reads.
public struct FirebaseIDTokenClaims: Codable, Equatable, Hashable, Sendable {
  /// The user's id.
  public var sub: String
  /// The email.
  public var email: String?
  /// Whether the email is verified.
  public var emailVerified: Bool?
  /// The display name.
  public var name: String?
  /// When it was issued (Unix seconds).
  public var iat: Int
  /// When it expires (Unix seconds).
  public var exp: Int

  enum CodingKeys: String, CodingKey {
    case sub, email, name, iat, exp
    case emailVerified = "email_verified"
  }

  /// The claims of `token`, read without checking its signature (clients cannot check it).
  public init?(token: String) {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count >= 2 else { return nil }
    var payload = String(parts[1]).replacing("-", with: "+").replacing("_", with: "/")
    while payload.utf8.count % 4 != 0 { payload += "=" }
    guard let data = Data(base64Encoded: payload),
      let claims = try? JSONDecoder().decode(Self.self, from: data)
    else { return nil }
    self = claims
  }
}
