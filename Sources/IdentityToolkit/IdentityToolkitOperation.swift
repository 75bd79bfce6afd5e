/// One operation of Firebase Auth's REST surface (Identity Toolkit v1 and v2, Secure Token, the
/// v3 names the iOS SDK still calls, the Auth emulator's own routes): said once, for the client
/// that sends it and the server that serves it, with the type of its request
/// (``IdentityToolkitRequest``). Learnt from firebase-tools' `operations.ts`, one tree of
/// operations for the emulator, each with its schema.
public struct IdentityToolkitOperation: Hashable, Sendable, CustomStringConvertible {
  /// Who may call an operation, as the emulator checks.
  public enum Access: Hashable, Sendable {
    /// An API key, or `Bearer owner` (which makes the call privileged).
    case key
    /// `Bearer owner` only: the operations that name a project in their path.
    case owner
    /// An API key; `Authorization` is not read (Secure Token).
    case keyOnly
    /// Anyone on this machine: the emulator's own routes.
    case local
    /// Anyone: the page an emailed link opens.
    case open
  }

  /// The HTTP method.
  public let method: String
  /// The production host (`identitytoolkit.googleapis.com`); empty for the emulator's own
  /// routes, which have none.
  public let host: String
  /// The path on that host; `{project}` stands for the project id.
  public let path: String
  /// Its name among the legacy v3 `relyingparty` operations, if it has one.
  public let legacyName: String?
  /// Who may call it.
  public let access: Access
  /// The type of its body (or, for a `GET`, its query), which the client encodes and the
  /// server decodes; `nil` when a server reads nothing of the request into a type (no
  /// parameters, a document copied path by path, or refused unread).
  public let request: (any IdentityToolkitBody.Type)?

  private init(
    _ method: String, _ host: String, _ path: String, legacy: String? = nil, _ access: Access,
    _ request: (any IdentityToolkitBody.Type)? = nil
  ) {
    self.method = method
    self.host = host
    self.path = path
    self.legacyName = legacy
    self.access = access
    self.request = request
  }

  /// Whether two are the same operation: the same method at the same place.
  public static func == (left: Self, right: Self) -> Bool {
    (left.method, left.host, left.path) == (right.method, right.host, right.path)
  }

  /// Hashes the method and the place.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(method)
    hasher.combine(host)
    hasher.combine(path)
  }

  /// The path an emulator serves it at: the host as the first part, as firebase-tools does.
  public var emulatorPath: String { host.isEmpty ? path : "/" + host + path }

  /// The path with the project id in place of `{project}`.
  public func path(project: String) -> String {
    path.replacing("{project}", with: project)
  }

  /// Its name: the last part of its path (`accounts:signUp`, `token`).
  public var name: String { path.split(separator: "/").last.map(String.init) ?? path }

  /// `POST /v1/accounts:signUp`.
  public var description: String { "\(method) \(emulatorPath)" }

  private static let v1 = "identitytoolkit.googleapis.com"

  /// `accounts:signUp` (v3 `signupNewUser`).
  public static let signUp = Self(
    "POST", v1, "/v1/accounts:signUp", legacy: "signupNewUser", .key,
    IdentityToolkitRequest.SignUp.self)
  /// `accounts:signInWithPassword` (v3 `verifyPassword`).
  public static let signInWithPassword = Self(
    "POST", v1, "/v1/accounts:signInWithPassword", legacy: "verifyPassword", .key,
    IdentityToolkitRequest.SignInWithPassword.self)
  /// `accounts:sendOobCode` (v3 `getOobConfirmationCode`).
  public static let sendOobCode = Self(
    "POST", v1, "/v1/accounts:sendOobCode", legacy: "getOobConfirmationCode", .key,
    IdentityToolkitRequest.SendOobCode.self)
  /// `accounts:resetPassword`.
  public static let resetPassword = Self(
    "POST", v1, "/v1/accounts:resetPassword", legacy: "resetPassword", .key,
    IdentityToolkitRequest.ResetPassword.self)
  /// `accounts:signInWithEmailLink` (v3 `emailLinkSignin`).
  public static let signInWithEmailLink = Self(
    "POST", v1, "/v1/accounts:signInWithEmailLink", legacy: "emailLinkSignin", .key,
    IdentityToolkitRequest.SignInWithEmailLink.self)
  /// `accounts:update` (v3 `setAccountInfo`).
  public static let update = Self(
    "POST", v1, "/v1/accounts:update", legacy: "setAccountInfo", .key,
    IdentityToolkitRequest.Update.self)
  /// `accounts:lookup` (v3 `getAccountInfo`).
  public static let lookup = Self(
    "POST", v1, "/v1/accounts:lookup", legacy: "getAccountInfo", .key,
    IdentityToolkitRequest.Lookup.self)
  /// `accounts:delete` (v3 `deleteAccount`).
  public static let delete = Self(
    "POST", v1, "/v1/accounts:delete", legacy: "deleteAccount", .key,
    IdentityToolkitRequest.Delete.self)
  /// `accounts:signInWithCustomToken` (v3 `verifyCustomToken`).
  public static let signInWithCustomToken = Self(
    "POST", v1, "/v1/accounts:signInWithCustomToken", legacy: "verifyCustomToken", .key,
    IdentityToolkitRequest.SignInWithCustomToken.self)
  /// `accounts:createAuthUri`.
  public static let createAuthUri = Self(
    "POST", v1, "/v1/accounts:createAuthUri", legacy: "createAuthUri", .key,
    IdentityToolkitRequest.CreateAuthUri.self)
  /// `GET /v1/projects` (v3 `getProjectConfig`).
  public static let projects = Self("GET", v1, "/v1/projects", legacy: "getProjectConfig", .key)
  /// `GET /v1/recaptchaParams` (v3 `getRecaptchaParam`).
  public static let recaptchaParams = Self(
    "GET", v1, "/v1/recaptchaParams", legacy: "getRecaptchaParam", .key)
  /// `accounts:signInWithIdp` (v3 `verifyAssertion`).
  public static let signInWithIdp = Self(
    "POST", v1, "/v1/accounts:signInWithIdp", legacy: "verifyAssertion", .key)
  /// `accounts:signInWithPhoneNumber` (v3 `verifyPhoneNumber`).
  public static let signInWithPhoneNumber = Self(
    "POST", v1, "/v1/accounts:signInWithPhoneNumber", legacy: "verifyPhoneNumber", .key,
    IdentityToolkitRequest.SignInWithPhoneNumber.self)
  /// `accounts:sendVerificationCode`.
  public static let sendVerificationCode = Self(
    "POST", v1, "/v1/accounts:sendVerificationCode", legacy: "sendVerificationCode", .key,
    IdentityToolkitRequest.SendVerificationCode.self)

  /// Secure Token's `token`: a refresh token for new tokens.
  public static let token = Self(
    "POST", "securetoken.googleapis.com", "/v1/token", .keyOnly, IdentityToolkitRequest.Token.self)

  /// `POST /v1/projects/{project}/accounts`: an admin creates a user.
  public static let adminSignUp = Self(
    "POST", v1, "/v1/projects/{project}/accounts", .owner, IdentityToolkitRequest.SignUp.self)
  /// An admin's `accounts:lookup`.
  public static let adminLookup = Self(
    "POST", v1, "/v1/projects/{project}/accounts:lookup", .owner, IdentityToolkitRequest.Lookup.self
  )
  /// An admin's `accounts:update`.
  public static let adminUpdate = Self(
    "POST", v1, "/v1/projects/{project}/accounts:update", .owner, IdentityToolkitRequest.Update.self
  )
  /// An admin's `accounts:delete`.
  public static let adminDelete = Self(
    "POST", v1, "/v1/projects/{project}/accounts:delete", .owner, IdentityToolkitRequest.Delete.self
  )
  /// An admin's `accounts:sendOobCode`.
  public static let adminSendOobCode = Self(
    "POST", v1, "/v1/projects/{project}/accounts:sendOobCode", .owner,
    IdentityToolkitRequest.SendOobCode.self)
  /// `accounts:batchGet`: a page of users.
  public static let batchGet = Self(
    "GET", v1, "/v1/projects/{project}/accounts:batchGet", .owner,
    IdentityToolkitRequest.BatchGet.self)
  /// `projects/{project}:createSessionCookie`: a session cookie for an ID token.
  public static let createSessionCookie = Self(
    "POST", v1, "/v1/projects/{project}:createSessionCookie", .owner,
    IdentityToolkitRequest.CreateSessionCookie.self)
  /// `accounts:batchDelete`.
  public static let batchDelete = Self(
    "POST", v1, "/v1/projects/{project}/accounts:batchDelete", .owner,
    IdentityToolkitRequest.BatchDelete.self)
  /// `accounts:batchCreate`: an import of users, with their password hashes.
  public static let batchCreate = Self(
    "POST", v1, "/v1/projects/{project}/accounts:batchCreate", .owner,
    IdentityToolkitRequest.BatchCreate.self)
  /// v3 `uploadAccount`: `batchCreate` of the project the body names (`targetProjectId`), as
  /// v3 `downloadAccount` is `batchGet`'s.
  public static let uploadAccount = Self(
    "POST", "www.googleapis.com", "/identitytoolkit/v3/relyingparty/uploadAccount", .open,
    IdentityToolkitRequest.BatchCreate.self)
  /// `accounts:query` (also `:queryAccounts`).
  public static let query = Self(
    "POST", v1, "/v1/projects/{project}/accounts:query", .owner, IdentityToolkitRequest.Query.self)
  /// v3 `downloadAccount`.
  public static let downloadAccount = Self(
    "POST", "www.googleapis.com", "/identitytoolkit/v3/relyingparty/downloadAccount", .open,
    IdentityToolkitRequest.DownloadAccount.self)
  /// v2 `GET config`.
  public static let config = Self("GET", v1, "/v2/projects/{project}/config", .owner)
  /// v2 `PATCH config`.
  public static let updateConfig = Self("PATCH", v1, "/v2/projects/{project}/config", .owner)
  /// v2 `accounts/mfaSignIn:start`.
  public static let startSecondFactor = Self("POST", v1, "/v2/accounts/mfaSignIn:start", .key)
  /// v2 `accounts/mfaSignIn:finalize`.
  public static let finishSecondFactor = Self(
    "POST", v1, "/v2/accounts/mfaSignIn:finalize", .key,
    IdentityToolkitRequest.FinalizeSecondFactor.self)
  /// v2 `accounts/mfaEnrollment:start`.
  public static let startEnrollment = Self("POST", v1, "/v2/accounts/mfaEnrollment:start", .key)
  /// v2 `accounts/mfaEnrollment:finalize`.
  public static let finishEnrollment = Self(
    "POST", v1, "/v2/accounts/mfaEnrollment:finalize", .key)
  /// v2 `accounts/mfaEnrollment:withdraw`.
  public static let withdrawEnrollment = Self(
    "POST", v1, "/v2/accounts/mfaEnrollment:withdraw", .key)

  /// The emulator's `DELETE accounts`: every user of the project.
  public static let deleteAllAccounts = Self(
    "DELETE", "", "/emulator/v1/projects/{project}/accounts", .local)
  /// The emulator's `GET oobCodes`: the codes it would have emailed.
  public static let oobCodes = Self("GET", "", "/emulator/v1/projects/{project}/oobCodes", .local)
  /// The emulator's `GET verificationCodes`: the codes it would have texted.
  public static let verificationCodes = Self(
    "GET", "", "/emulator/v1/projects/{project}/verificationCodes", .local)
  /// The emulator's `GET config`.
  public static let emulatorConfig = Self(
    "GET", "", "/emulator/v1/projects/{project}/config", .local)
  /// The emulator's `PATCH config`.
  public static let updateEmulatorConfig = Self(
    "PATCH", "", "/emulator/v1/projects/{project}/config", .local)
  /// The page an emailed link opens.
  public static let action = Self("GET", "", "/emulator/action", .open)

  /// Every operation, each once.
  public static let all: [IdentityToolkitOperation] = [
    .signUp, .signInWithPassword, .sendOobCode, .resetPassword, .signInWithEmailLink, .update,
    .lookup, .delete, .signInWithCustomToken, .createAuthUri, .projects, .recaptchaParams,
    .signInWithIdp,
    .signInWithPhoneNumber, .sendVerificationCode, .token, .adminSignUp, .adminLookup,
    .adminUpdate, .adminDelete, .adminSendOobCode, .createSessionCookie, .batchGet, .batchDelete,
    .batchCreate, .query,
    .downloadAccount, .uploadAccount, .config, .updateConfig, .startSecondFactor,
    .finishSecondFactor,
    .startEnrollment, .finishEnrollment, .withdrawEnrollment, .deleteAllAccounts, .oobCodes,
    .verificationCodes, .emulatorConfig, .updateEmulatorConfig, .action,
  ]

  /// The operation a legacy v3 name stands for.
  public static let byLegacyName: [String: IdentityToolkitOperation] = Dictionary(
    uniqueKeysWithValues: all.compactMap { operation in operation.legacyName.map { ($0, operation) }
    })
}
