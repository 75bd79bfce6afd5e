/// What `PUT /user` changes: any of the email (confirmed by email first), the password and the
/// metadata, merged key by key (a `null` value deletes its key).
public struct GoTrueUserAttributes: Equatable, Hashable, Sendable, Codable {
  /// A new email address.
  public var email: String?
  /// A new password.
  public var password: String?
  /// Keys to merge into `user_metadata`.
  public var data: [String: JSONValue]?
  /// A new phone number, E.164: it changes once the code texted to it is verified.
  public var phone: String?
  /// How the new number's code is sent: `sms` (the default) or `whatsapp`.
  public var channel: String?
  /// Admin-only metadata, refused on this route.
  public var appMetadata: [String: JSONValue]?
  /// The code `GET /reauthenticate` sent, when a password change needs it.
  public var nonce: String?
  /// The PKCE challenge of an email change's links (``PKCEChallenge``), with its method.
  public var codeChallenge: String?
  /// `s256` or `plain`.
  public var codeChallengeMethod: String?

  /// Attributes with the given parts.
  public init(
    email: String? = nil, password: String? = nil, data: [String: JSONValue]? = nil,
    phone: String? = nil, appMetadata: [String: JSONValue]? = nil, nonce: String? = nil,
    pkce: PKCEChallenge? = nil
  ) {
    self.email = email
    self.password = password
    self.data = data
    self.phone = phone
    self.appMetadata = appMetadata
    self.nonce = nonce
    codeChallenge = pkce?.challenge
    codeChallengeMethod = pkce?.method.rawValue
  }

  enum CodingKeys: String, CodingKey {
    case email, password, data, phone, nonce, channel
    case appMetadata = "app_metadata"
    case codeChallenge = "code_challenge"
    case codeChallengeMethod = "code_challenge_method"
  }
}

/// What `POST /admin/users` creates and `PUT /admin/users/{id}` changes (`AdminUserParams`).
public struct GoTrueAdminUserAttributes: Equatable, Hashable, Sendable, Codable {
  /// The new user's UUID (create only).
  public var id: String?
  /// The user's role, `authenticated` by default.
  public var role: String?
  /// The email address.
  public var email: String?
  /// A phone number (E.164, with or without the `+`).
  public var phone: String?
  /// Confirm the phone number at once.
  public var phoneConfirm: Bool?
  /// A password; a new user without one gets a random one.
  public var password: String?
  /// A bcrypt hash to store instead of a password.
  public var passwordHash: String?
  /// Confirm the email at once.
  public var emailConfirm: Bool?
  /// Keys to merge into `user_metadata`.
  public var userMetadata: [String: JSONValue]?
  /// Keys to merge into `app_metadata`.
  public var appMetadata: [String: JSONValue]?
  /// A Go duration (`24h`, `90m`) to ban the user for, or `none` to lift a ban.
  public var banDuration: String?

  /// Attributes with the given parts.
  public init(
    id: String? = nil, role: String? = nil, email: String? = nil, phone: String? = nil,
    password: String? = nil, passwordHash: String? = nil, emailConfirm: Bool? = nil,
    userMetadata: [String: JSONValue]? = nil, appMetadata: [String: JSONValue]? = nil,
    banDuration: String? = nil, phoneConfirm: Bool? = nil
  ) {
    self.id = id
    self.role = role
    self.email = email
    self.phone = phone
    self.phoneConfirm = phoneConfirm
    self.password = password
    self.passwordHash = passwordHash
    self.emailConfirm = emailConfirm
    self.userMetadata = userMetadata
    self.appMetadata = appMetadata
    self.banDuration = banDuration
  }

  enum CodingKeys: String, CodingKey {
    case id, role, email, phone, password
    case passwordHash = "password_hash"
    case emailConfirm = "email_confirm"
    case phoneConfirm = "phone_confirm"
    case userMetadata = "user_metadata"
    case appMetadata = "app_metadata"
    case banDuration = "ban_duration"
  }
}

/// What `POST /verify` answers: a session, or, halfway through a secure email change, a note
/// that the other address must confirm too.
public enum GoTrueVerifyOutcome: Equatable, Hashable, Sendable {
  /// The code was right: the user is signed in.
  case session(GoTrueSession)
  /// One of the two addresses of an email change confirmed; the other still has to.
  case emailChangePending(message: String)
  /// A PKCE link was verified: the code the browser takes back to the app, which exchanges it
  /// with its verifier at `POST /token?grant_type=pkce`.
  case authorizationCode(String)

  /// GoTrue's message for the first half of a secure email change.
  public static let otherAddressMustConfirm =
    "Confirmation link accepted. Please proceed to confirm link sent to the other email"
}

/// One page of `GET /admin/users`.
public struct GoTrueUserPage: Equatable, Hashable, Sendable {
  /// The users on the page.
  public var users: [GoTrueUser]
  /// How many users match, over all pages.
  public var total: Int

  /// A page with the given users.
  public init(users: [GoTrueUser], total: Int) {
    self.users = users
    self.total = total
  }
}
