/// The bodies of Identity Toolkit's operations, as the client sends them and the server reads
/// them: one Codable type per operation, its members in the order the Firebase SDKs write
/// them. A server reads them with the emulator's leniency (camel- or snake-case keys, numbers
/// where strings are expected, a lone string for a list); `null` is the same as absent.
public enum IdentityToolkitRequest {
  /// `accounts:signUp`, and an admin's `projects/{project}/accounts`.
  public struct SignUp: Codable, Equatable, Sendable {
    /// The id an admin gives the new user.
    public var localId: String?
    /// An anonymous user's ID token, upgraded to this account.
    public var idToken: String?
    /// The address.
    public var email: String?
    /// The password.
    public var password: String?
    /// The display name.
    public var displayName: String?
    /// The photo URL.
    public var photoUrl: String?
    /// Whether the address is verified (an admin's).
    public var emailVerified: Bool?
    /// Whether the account is disabled (an admin's).
    public var disabled: Bool?
    /// The phone number (an admin's).
    public var phoneNumber: String?
    /// Whether tokens are wanted in the answer (the SDKs always send `true`).
    public var returnSecureToken: Bool?

    /// A signup with the given members.
    public init(
      localId: String? = nil, idToken: String? = nil, email: String? = nil,
      password: String? = nil, displayName: String? = nil, photoUrl: String? = nil,
      emailVerified: Bool? = nil, disabled: Bool? = nil, phoneNumber: String? = nil,
      returnSecureToken: Bool? = nil
    ) {
      self.localId = localId
      self.idToken = idToken
      self.email = email
      self.password = password
      self.displayName = displayName
      self.photoUrl = photoUrl
      self.emailVerified = emailVerified
      self.disabled = disabled
      self.phoneNumber = phoneNumber
      self.returnSecureToken = returnSecureToken
    }
  }

  /// `accounts:signInWithPassword`.
  public struct SignInWithPassword: Codable, Equatable, Sendable {
    /// The address.
    public var email: String?
    /// The password.
    public var password: String?
    /// Whether tokens are wanted in the answer.
    public var returnSecureToken: Bool?

    /// A sign-in with the given members.
    public init(email: String? = nil, password: String? = nil, returnSecureToken: Bool? = nil) {
      self.email = email
      self.password = password
      self.returnSecureToken = returnSecureToken
    }
  }

  /// `accounts:sendOobCode`.
  public struct SendOobCode: Codable, Equatable, Sendable {
    /// What the code is for (`PASSWORD_RESET`, `VERIFY_EMAIL`…; a number is the name at that
    /// index, as the emulator reads enums).
    public var requestType: String?
    /// The address (a reset, an email link).
    public var email: String?
    /// The new address (`VERIFY_AND_CHANGE_EMAIL`).
    public var newEmail: String?
    /// The signed-in user's ID token (`VERIFY_EMAIL`).
    public var idToken: String?
    /// Where the link continues.
    public var continueUrl: String?
    /// An admin asks for the link in the answer instead of an email.
    public var returnOobLink: Bool?

    /// A request for a code with the given members.
    public init(
      requestType: String? = nil, email: String? = nil, newEmail: String? = nil,
      idToken: String? = nil, continueUrl: String? = nil, returnOobLink: Bool? = nil
    ) {
      self.requestType = requestType
      self.email = email
      self.newEmail = newEmail
      self.idToken = idToken
      self.continueUrl = continueUrl
      self.returnOobLink = returnOobLink
    }
  }

  /// `accounts:resetPassword`: with `newPassword` spends the code, without only reads it.
  public struct ResetPassword: Codable, Equatable, Sendable {
    /// The code from the link.
    public var oobCode: String?
    /// The new password.
    public var newPassword: String?

    /// A reset with the given members.
    public init(oobCode: String? = nil, newPassword: String? = nil) {
      self.oobCode = oobCode
      self.newPassword = newPassword
    }
  }

  /// `accounts:update`: the signed-in user's (or, for an admin, `localId`'s) changes, or a
  /// code to apply.
  public struct Update: Codable, Equatable, Sendable {
    /// The signed-in user's ID token.
    public var idToken: String?
    /// The user an admin changes.
    public var localId: String?
    /// An out-of-band code to apply (`applyActionCode`).
    public var oobCode: String?
    /// A new address.
    public var email: String?
    /// A new password.
    public var password: String?
    /// A new display name.
    public var displayName: String?
    /// A new photo URL.
    public var photoUrl: String?
    /// Tokens issued before this time (seconds) stop working.
    public var validSince: Int64?
    /// Disables (or enables) the account (an admin's).
    public var disableUser: Bool?
    /// Providers to unlink.
    public var deleteProvider: [String]?
    /// Whether the address is verified (an admin's).
    public var emailVerified: Bool?
    /// Custom claims as a JSON object's text (an admin's).
    public var customAttributes: String?
    /// When the account was made, in milliseconds (an admin's).
    public var createdAt: Int64?
    /// When the user last signed in, in milliseconds (an admin's).
    public var lastLoginAt: Int64?
    /// A new phone number (an admin's).
    public var phoneNumber: String?
    /// Whether new tokens are wanted in the answer.
    public var returnSecureToken: Bool?

    /// A change with the given members.
    public init(
      idToken: String? = nil, localId: String? = nil, oobCode: String? = nil,
      email: String? = nil, password: String? = nil, displayName: String? = nil,
      photoUrl: String? = nil, validSince: Int64? = nil, disableUser: Bool? = nil,
      deleteProvider: [String]? = nil, emailVerified: Bool? = nil,
      customAttributes: String? = nil, createdAt: Int64? = nil, lastLoginAt: Int64? = nil,
      phoneNumber: String? = nil, returnSecureToken: Bool? = nil
    ) {
      self.idToken = idToken
      self.localId = localId
      self.oobCode = oobCode
      self.email = email
      self.password = password
      self.displayName = displayName
      self.photoUrl = photoUrl
      self.validSince = validSince
      self.disableUser = disableUser
      self.deleteProvider = deleteProvider
      self.emailVerified = emailVerified
      self.customAttributes = customAttributes
      self.createdAt = createdAt
      self.lastLoginAt = lastLoginAt
      self.phoneNumber = phoneNumber
      self.returnSecureToken = returnSecureToken
    }
  }

  /// `accounts:lookup`: the signed-in user, or (for an admin) the users named.
  public struct Lookup: Codable, Equatable, Sendable {
    /// The signed-in user's ID token.
    public var idToken: String?
    /// Users by id (an admin's).
    public var localId: [String]?
    /// Users by address (an admin's).
    public var email: [String]?
    /// Users by phone number (an admin's).
    public var phoneNumber: [String]?

    /// A lookup with the given members.
    public init(
      idToken: String? = nil, localId: [String]? = nil, email: [String]? = nil,
      phoneNumber: [String]? = nil
    ) {
      self.idToken = idToken
      self.localId = localId
      self.email = email
      self.phoneNumber = phoneNumber
    }
  }

  /// `accounts:delete`: the signed-in user, or (for an admin) `localId`.
  public struct Delete: Codable, Equatable, Sendable {
    /// The signed-in user's ID token.
    public var idToken: String?
    /// The user an admin deletes.
    public var localId: String?

    /// A deletion with the given members.
    public init(idToken: String? = nil, localId: String? = nil) {
      self.idToken = idToken
      self.localId = localId
    }
  }

  /// `accounts:signInWithEmailLink`.
  public struct SignInWithEmailLink: Codable, Equatable, Sendable {
    /// The address the link was sent to.
    public var email: String?
    /// The code from the link.
    public var oobCode: String?
    /// A signed-in user's ID token, to link the address to.
    public var idToken: String?

    /// A sign-in by link with the given members.
    public init(email: String? = nil, oobCode: String? = nil, idToken: String? = nil) {
      self.email = email
      self.oobCode = oobCode
      self.idToken = idToken
    }
  }

  /// `accounts:signInWithCustomToken`.
  public struct SignInWithCustomToken: Codable, Equatable, Sendable {
    /// The custom token an admin made.
    public var token: String?
    /// Whether tokens are wanted in the answer.
    public var returnSecureToken: Bool?

    /// A sign-in by custom token with the given members.
    public init(token: String? = nil, returnSecureToken: Bool? = nil) {
      self.token = token
      self.returnSecureToken = returnSecureToken
    }
  }

  /// `accounts:createAuthUri`: how an address signs in.
  public struct CreateAuthUri: Codable, Equatable, Sendable {
    /// The address.
    public var identifier: String?
    /// Where a provider's sign-in continues.
    public var continueUri: String?
    /// The session of an earlier call.
    public var sessionId: String?
    /// The provider asked about.
    public var providerId: String?

    /// A question with the given members.
    public init(
      identifier: String? = nil, continueUri: String? = nil, sessionId: String? = nil,
      providerId: String? = nil
    ) {
      self.identifier = identifier
      self.continueUri = continueUri
      self.sessionId = sessionId
      self.providerId = providerId
    }
  }

  /// `accounts:batchDelete` (an admin's).
  public struct BatchDelete: Codable, Equatable, Sendable {
    /// The users to delete.
    public var localIds: [String]?
    /// Whether enabled users are deleted too.
    public var force: Bool?

    /// A batch deletion with the given members.
    public init(localIds: [String]? = nil, force: Bool? = nil) {
      self.localIds = localIds
      self.force = force
    }
  }
}

extension Optional where Wrapped == String {
  /// The text when it is there and not empty (the emulator's truthiness), else `nil`.
  package var nonEmpty: String? {
    guard let text = self, !text.isEmpty else { return nil }
    return text
  }
}
