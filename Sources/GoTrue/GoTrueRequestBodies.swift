/// The bodies GoTrue's endpoints read (the `…Params` structs of `internal/api`), as one type
/// each that clients encode and servers decode, so the two cannot disagree on a field's name.
/// Every field is optional, as in Go: what is missing is for the endpoint to refuse.

/// `POST /signup` (`SignupParams`).
public struct GoTrueSignUpBody: Codable, Equatable, Sendable {
  /// The email address.
  public var email: String?
  /// The phone number, E.164.
  public var phone: String?
  /// The password.
  public var password: String?
  /// The new user's `user_metadata`.
  public var data: [String: JSONValue]?
  /// How a phone's code is sent: `sms` (the default) or `whatsapp`.
  public var channel: String?
  /// The PKCE challenge (``PKCEChallenge``), with its method.
  public var codeChallenge: String?
  /// `s256` or `plain`.
  public var codeChallengeMethod: String?

  /// A body with the given fields.
  public init(
    email: String? = nil, phone: String? = nil, password: String? = nil,
    data: [String: JSONValue]? = nil, pkce: PKCEChallenge? = nil
  ) {
    self.email = email
    self.phone = phone
    self.password = password
    self.data = data
    codeChallenge = pkce?.challenge
    codeChallengeMethod = pkce?.method.rawValue
  }

  enum CodingKeys: String, CodingKey {
    case email, phone, password, data, channel
    case codeChallenge = "code_challenge"
    case codeChallengeMethod = "code_challenge_method"
  }
}

/// `POST /token?grant_type=password` (`PasswordGrantParams`).
public struct GoTruePasswordGrantBody: Codable, Equatable, Sendable {
  /// The email address.
  public var email: String?
  /// The phone number (the engine has no phone provider).
  public var phone: String?
  /// The password.
  public var password: String?

  /// A body with the given fields.
  public init(email: String? = nil, phone: String? = nil, password: String? = nil) {
    self.email = email
    self.phone = phone
    self.password = password
  }
}

/// `POST /token?grant_type=refresh_token` (`RefreshTokenGrantParams`).
public struct GoTrueRefreshGrantBody: Codable, Equatable, Sendable {
  /// The refresh token to rotate.
  public var refreshToken: String?

  /// A body with the given token.
  public init(refreshToken: String? = nil) { self.refreshToken = refreshToken }

  enum CodingKeys: String, CodingKey { case refreshToken = "refresh_token" }
}

/// `POST /token?grant_type=pkce` (`PKCEGrantParams`).
public struct GoTruePKCEGrantBody: Codable, Equatable, Sendable {
  /// The code the link carried (`?code=`).
  public var authCode: String?
  /// The PKCE verifier whose challenge the flow began with.
  public var codeVerifier: String?

  /// A body with the given code and verifier.
  public init(authCode: String? = nil, codeVerifier: String? = nil) {
    self.authCode = authCode
    self.codeVerifier = codeVerifier
  }

  enum CodingKeys: String, CodingKey {
    case authCode = "auth_code"
    case codeVerifier = "code_verifier"
  }
}

/// `POST /recover` (`RecoverParams`).
public struct GoTrueRecoverBody: Codable, Equatable, Sendable {
  /// The email address.
  public var email: String?

  /// The PKCE challenge (``PKCEChallenge``), with its method.
  public var codeChallenge: String?
  /// `s256` or `plain`.
  public var codeChallengeMethod: String?

  /// A body for `email`.
  public init(email: String? = nil, pkce: PKCEChallenge? = nil) {
    self.email = email
    codeChallenge = pkce?.challenge
    codeChallengeMethod = pkce?.method.rawValue
  }

  enum CodingKeys: String, CodingKey {
    case email
    case codeChallenge = "code_challenge"
    case codeChallengeMethod = "code_challenge_method"
  }
}

/// `POST /verify` (`VerifyParams`): a code with its email (or phone), or a link's token hash.
public struct GoTrueVerifyBody: Codable, Equatable, Sendable {
  /// The verification type (`signup`, `recovery`, `email`, …).
  public var type: String?
  /// The email address.
  public var email: String?
  /// The phone number (the engine has no phone provider).
  public var phone: String?
  /// The code.
  public var token: String?
  /// A link's token hash.
  public var tokenHash: String?
  /// Where the emailed link leads once verified.
  public var redirectTo: String?

  /// A body with the given fields.
  public init(
    type: String? = nil, email: String? = nil, phone: String? = nil, token: String? = nil,
    tokenHash: String? = nil, redirectTo: String? = nil
  ) {
    self.type = type
    self.email = email
    self.phone = phone
    self.token = token
    self.tokenHash = tokenHash
    self.redirectTo = redirectTo
  }

  enum CodingKeys: String, CodingKey {
    case type, email, phone, token
    case tokenHash = "token_hash"
    case redirectTo = "redirect_to"
  }
}

/// `POST /resend` (`ResendConfirmationParams`).
public struct GoTrueResendBody: Codable, Equatable, Sendable {
  /// `signup`, `email_change`, `sms` or `phone_change`.
  public var type: String?
  /// The email address.
  public var email: String?
  /// The phone number (the engine has no phone provider).
  public var phone: String?
  /// The PKCE challenge (``PKCEChallenge``), with its method.
  public var codeChallenge: String?
  /// `s256` or `plain`.
  public var codeChallengeMethod: String?

  /// A body with the given fields.
  public init(
    type: String? = nil, email: String? = nil, phone: String? = nil, pkce: PKCEChallenge? = nil
  ) {
    self.type = type
    self.email = email
    self.phone = phone
    codeChallenge = pkce?.challenge
    codeChallengeMethod = pkce?.method.rawValue
  }

  enum CodingKeys: String, CodingKey {
    case type, email, phone
    case codeChallenge = "code_challenge"
    case codeChallengeMethod = "code_challenge_method"
  }
}

/// `POST /otp` and `POST /magiclink` (`OtpParams`, `MagicLinkParams`).
public struct GoTrueOTPBody: Codable, Equatable, Sendable {
  /// The email address.
  public var email: String?
  /// The phone number (the engine has no phone provider).
  public var phone: String?
  /// Whether an unknown address becomes a new user (default true).
  public var createUser: Bool?
  /// The new user's `user_metadata`.
  public var data: [String: JSONValue]?
  /// `sms` or `whatsapp`, for phones only.
  public var channel: String?
  /// The PKCE challenge (``PKCEChallenge``), with its method.
  public var codeChallenge: String?
  /// `s256` or `plain`.
  public var codeChallengeMethod: String?

  /// A body with the given fields.
  public init(
    email: String? = nil, phone: String? = nil, createUser: Bool? = nil,
    data: [String: JSONValue]? = nil, channel: String? = nil, pkce: PKCEChallenge? = nil
  ) {
    self.email = email
    self.phone = phone
    self.createUser = createUser
    self.data = data
    self.channel = channel
    codeChallenge = pkce?.challenge
    codeChallengeMethod = pkce?.method.rawValue
  }

  enum CodingKeys: String, CodingKey {
    case email, phone, data, channel
    case createUser = "create_user"
    case codeChallenge = "code_challenge"
    case codeChallengeMethod = "code_challenge_method"
  }
}

/// `DELETE /admin/users/{id}` (`adminUserDeleteParams`).
public struct GoTrueAdminDeleteBody: Codable, Equatable, Sendable {
  /// Keep the row, its email obfuscated and its metadata cleared.
  public var shouldSoftDelete: Bool?

  /// A body with the given choice.
  public init(shouldSoftDelete: Bool? = nil) { self.shouldSoftDelete = shouldSoftDelete }

  enum CodingKeys: String, CodingKey { case shouldSoftDelete = "should_soft_delete" }
}

/// `POST /admin/generate_link` (`GenerateLinkParams`).
public struct GoTrueGenerateLinkBody: Codable, Equatable, Sendable {
  /// `signup`, `invite`, `magiclink`, `recovery`, `email_change_current`, `email_change_new`.
  public var type: String?
  /// The email address.
  public var email: String?
  /// The new address of an email change.
  public var newEmail: String?
  /// The password.
  public var password: String?
  /// The new user's `user_metadata`.
  public var data: [String: JSONValue]?
  /// Where the emailed link leads once verified.
  public var redirectTo: String?

  /// A body with the given fields.
  public init(
    type: String? = nil, email: String? = nil, newEmail: String? = nil, password: String? = nil,
    data: [String: JSONValue]? = nil, redirectTo: String? = nil
  ) {
    self.type = type
    self.email = email
    self.newEmail = newEmail
    self.password = password
    self.data = data
    self.redirectTo = redirectTo
  }

  enum CodingKeys: String, CodingKey {
    case type, email, password, data
    case newEmail = "new_email"
    case redirectTo = "redirect_to"
  }
}

/// `POST /factors` (`EnrollFactorParams`).
public struct GoTrueEnrollFactorBody: Codable, Equatable, Sendable {
  /// `totp`, `phone` or `webauthn`.
  public var factorType: String?
  /// A name the user gives the factor.
  public var friendlyName: String?
  /// The issuer a TOTP app shows.
  public var issuer: String?
  /// The phone number of a phone factor.
  public var phone: String?

  /// A body with the given fields.
  public init(
    factorType: String? = nil, friendlyName: String? = nil, issuer: String? = nil,
    phone: String? = nil
  ) {
    self.factorType = factorType
    self.friendlyName = friendlyName
    self.issuer = issuer
    self.phone = phone
  }

  enum CodingKeys: String, CodingKey {
    case issuer, phone
    case factorType = "factor_type"
    case friendlyName = "friendly_name"
  }
}

/// `POST /invite` (`InviteParams`).
public struct GoTrueInviteBody: Codable, Equatable, Sendable {
  /// The address to invite.
  public var email: String?
  /// The new user's `user_metadata`.
  public var data: [String: JSONValue]?

  /// A body with the given fields.
  public init(email: String? = nil, data: [String: JSONValue]? = nil) {
    self.email = email
    self.data = data
  }
}

/// `POST /factors/{id}/verify` (`VerifyFactorParams`).
public struct GoTrueVerifyFactorBody: Codable, Equatable, Sendable {
  /// The challenge the code answers (a UUID; Go reads it as one, so other text is bad JSON).
  public var challengeID: String?
  /// The code the authenticator app shows.
  public var code: String?

  /// A body with the given fields.
  public init(challengeID: String? = nil, code: String? = nil) {
    self.challengeID = challengeID
    self.code = code
  }

  enum CodingKeys: String, CodingKey {
    case code
    case challengeID = "challenge_id"
  }
}

/// `PUT /admin/users/{id}/factors/{factor_id}` (`adminUserUpdateFactorParams`).
public struct GoTrueAdminUpdateFactorBody: Codable, Equatable, Sendable {
  /// The factor's new name; empty or absent leaves it.
  public var friendlyName: String?
  /// A phone factor's new number (no phone factors here: ignored, as GoTrue ignores it for
  /// other factors).
  public var phone: String?

  /// A body with the given fields.
  public init(friendlyName: String? = nil, phone: String? = nil) {
    self.friendlyName = friendlyName
    self.phone = phone
  }

  enum CodingKeys: String, CodingKey {
    case phone
    case friendlyName = "friendly_name"
  }
}
