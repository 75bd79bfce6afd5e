/// The answers of the operations only admins and the Firebase SDKs' other flows call: an
/// admin's new account, how an address signs in, a custom token's sign-in, a batch deletion and
/// a query. Each is written as the emulator writes it (``EmulatorEncodable``) and read back by
/// any client as `Decodable`.
public struct IdentityToolkitNewAccount: Codable, Equatable, Hashable, Sendable,
  EmulatorEncodable
{
  /// `identitytoolkit#SignupNewUserResponse`.
  public var kind: String?
  /// The new user's id.
  public var localId: String
  /// The display name, when set.
  public var displayName: String?
  /// The email, when there is one.
  public var email: String?

  /// An admin's new account: no tokens.
  public init(
    kind: String? = "identitytoolkit#SignupNewUserResponse", localId: String,
    displayName: String?, email: String?
  ) {
    self.kind = kind
    self.localId = localId
    self.displayName = displayName
    self.email = email
  }

  /// `kind`, `localId`, `displayName`, `email`.
  public var emulatorJSON: EmulatorJSON {
    .members([
      "kind": .maybe(kind), "localId": .string(localId), "displayName": .maybe(displayName),
      "email": .maybe(email),
    ])
  }
}

/// What `accounts:createAuthUri` answers: whether the address has an account and how it signs
/// in; with improved email privacy, only the session.
public struct IdentityToolkitCreateAuthUri: Codable, Equatable, Hashable, Sendable,
  EmulatorEncodable
{
  /// `identitytoolkit#CreateAuthUriResponse`.
  public var kind: String?
  /// Whether the address has an account.
  public var registered: Bool?
  /// The providers of its account (`password`).
  public var allProviders: [String]?
  /// The session asked for, or a new one.
  public var sessionId: String
  /// How it signs in (`password`, `emailLink`).
  public var signinMethods: [String]?

  /// An answer with the given parts.
  public init(
    kind: String? = "identitytoolkit#CreateAuthUriResponse", registered: Bool? = nil,
    allProviders: [String]? = nil, sessionId: String, signinMethods: [String]? = nil
  ) {
    self.kind = kind
    self.registered = registered
    self.allProviders = allProviders
    self.sessionId = sessionId
    self.signinMethods = signinMethods
  }

  /// `kind`, `registered`, `allProviders`, `sessionId`, `signinMethods`.
  public var emulatorJSON: EmulatorJSON {
    .members([
      "kind": .maybe(kind), "registered": .maybe(registered),
      "allProviders": allProviders.map { .array($0.map(EmulatorJSON.string)) },
      "sessionId": .string(sessionId),
      "signinMethods": signinMethods.map { .array($0.map(EmulatorJSON.string)) },
    ])
  }
}

/// What `accounts:signInWithCustomToken` answers: whether the token made the user, and a
/// session.
public struct IdentityToolkitCustomTokenSignIn: Codable, Equatable, Hashable, Sendable,
  EmulatorEncodable
{
  /// `identitytoolkit#VerifyCustomTokenResponse`.
  public var kind: String?
  /// Whether the token's user was made by this sign-in.
  public var isNewUser: Bool
  /// The ID token.
  public var idToken: String
  /// The refresh token.
  public var refreshToken: String
  /// Seconds the ID token lives, as a string.
  public var expiresIn: String

  /// An answer with the given parts.
  public init(
    kind: String? = "identitytoolkit#VerifyCustomTokenResponse", isNewUser: Bool,
    idToken: String, refreshToken: String, expiresIn: String
  ) {
    self.kind = kind
    self.isNewUser = isNewUser
    self.idToken = idToken
    self.refreshToken = refreshToken
    self.expiresIn = expiresIn
  }

  /// `kind`, `isNewUser`, then the tokens.
  public var emulatorJSON: EmulatorJSON {
    .members([
      "kind": .maybe(kind), "isNewUser": .bool(isNewUser), "idToken": .string(idToken),
      "refreshToken": .string(refreshToken), "expiresIn": .string(expiresIn),
    ])
  }
}

/// What `accounts:batchDelete` answers: the users it kept, by their index in the request;
/// `{}` when it deleted every one.
public struct IdentityToolkitBatchDelete: Codable, Equatable, Hashable, Sendable,
  EmulatorEncodable
{
  /// The users kept; absent when none was.
  public var errors: [Kept]?

  /// A user the deletion kept, and why.
  public struct Kept: Codable, Equatable, Hashable, Sendable {
    /// Its index in `localIds`.
    public var index: Int
    /// Its id.
    public var localId: String
    /// Why (`NOT_DISABLED : …`).
    public var message: String

    /// An entry with the given parts.
    public init(index: Int, localId: String, message: String) {
      self.index = index
      self.localId = localId
      self.message = message
    }
  }

  /// An answer listing `errors`, none left out.
  public init(errors: [Kept]?) {
    self.errors = errors
  }

  /// `errors` (`index`, `localId`, `message` each), only when some users were kept.
  public var emulatorJSON: EmulatorJSON {
    .members([
      "errors": errors.flatMap { kept in
        kept.isEmpty
          ? nil
          : .array(
            kept.map { entry in
              .members([
                "index": .int(Int64(entry.index)), "localId": .string(entry.localId),
                "message": .string(entry.message),
              ])
            })
      }
    ])
  }
}

/// What `accounts:query` answers: how many users there are, and (unless only the count was
/// asked for) every one of them.
public struct IdentityToolkitQuery: Codable, Equatable, Hashable, Sendable, EmulatorEncodable {
  /// How many, as a number's text.
  public var recordsCount: String
  /// The users; absent when only the count was asked for.
  public var userInfo: [IdentityToolkitUser]?

  /// An answer with the given parts.
  public init(recordsCount: String, userInfo: [IdentityToolkitUser]?) {
    self.recordsCount = recordsCount
    self.userInfo = userInfo
  }

  /// `recordsCount`, then `userInfo`.
  public var emulatorJSON: EmulatorJSON {
    .members([
      "recordsCount": .string(recordsCount),
      "userInfo": userInfo.map { .array($0.map(\.emulatorJSON)) },
    ])
  }
}
