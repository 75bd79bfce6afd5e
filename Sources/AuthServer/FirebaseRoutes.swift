import FirebaseEmulator
import GoTrue
import GoTrueEngine
import HTTPServer
import IdentityToolkit

/// The Firebase Auth emulator's REST surface (`firebase-tools`, `src/emulator/auth`), served
/// by the same engine: production host names become path prefixes, as in the emulator.
enum FirebaseRoutes {
  static let identityToolkit = "/identitytoolkit.googleapis.com/v1"
  static let project = identityToolkit + "/projects/{}"
  static let relyingParty = "/www.googleapis.com/identitytoolkit/v3/relyingparty/"
  static let emulator = "/emulator/v1/projects/{}"

  /// Whether `path` is the Firebase surface's (its answers and errors are Google's).
  static func serves(_ path: String) -> Bool {
    path == "/"
      || [
        "/identitytoolkit.googleapis.com/", "/securetoken.googleapis.com/",
        "/www.googleapis.com/", "/emulator/",
      ].contains { path.hasPrefix($0) }
  }

  /// A legacy v3 path (`/www.googleapis.com/identitytoolkit/v3/relyingparty/verifyPassword`,
  /// what the iOS SDK calls on an emulator) as the v1 path it stands for, and
  /// `…/v1/projects/{id}:queryAccounts` as `…/v1/projects/{id}/accounts:query` (the same
  /// operation); others unchanged.
  static func rewritten(_ path: String) -> String {
    let projects = identityToolkit + "/projects/"
    let query = ":queryAccounts"
    if path.hasPrefix(projects), path.hasSuffix(query) {
      let id = path.dropFirst(projects.count).dropLast(query.count)
      if !id.isEmpty, !id.contains("/") { return projects + id + "/accounts:query" }
    }
    guard path.hasPrefix(relyingParty),
      let operation = legacy[String(path.dropFirst(relyingParty.count))]
    else { return path }
    return identityToolkit + "/" + operation
  }

  /// The emulator's legacy names (`server.ts`, `registerLegacyRoutes`).
  static let legacy = [
    "createAuthUri": "accounts:createAuthUri", "deleteAccount": "accounts:delete",
    "emailLinkSignin": "accounts:signInWithEmailLink", "getAccountInfo": "accounts:lookup",
    "getOobConfirmationCode": "accounts:sendOobCode", "getProjectConfig": "projects",
    "getRecaptchaParam": "recaptchaParams", "publicKeys": "publicKeys",
    "resetPassword": "accounts:resetPassword",
    "sendVerificationCode": "accounts:sendVerificationCode", "setAccountInfo": "accounts:update",
    "setProjectConfig": "setProjectConfig", "signupNewUser": "accounts:signUp",
    "verifyAssertion": "accounts:signInWithIdp",
    "verifyCustomToken": "accounts:signInWithCustomToken",
    "verifyPassword": "accounts:signInWithPassword",
    "verifyPhoneNumber": "accounts:signInWithPhoneNumber",
  ]

  /// Every route, answered by `emulation`.
  static func all(_ emulation: FirebaseEmulation) -> [Route] {
    let v1 = identityToolkit
    let routes: [(String, [HTTPMethod: (Access, Handler)])] = [
      ("\(v1)/accounts:signUp", [.post: (.key, signUp)]),
      ("\(v1)/accounts:signInWithPassword", [.post: (.key, signIn)]),
      ("\(v1)/accounts:sendOobCode", [.post: (.key, sendOobCode)]),
      ("\(v1)/accounts:resetPassword", [.post: (.key, resetPassword)]),
      ("\(v1)/accounts:signInWithEmailLink", [.post: (.key, signInWithEmailLink)]),
      ("\(v1)/accounts:update", [.post: (.key, update)]),
      ("\(v1)/accounts:lookup", [.post: (.key, lookup)]),
      ("\(v1)/accounts:delete", [.post: (.key, delete)]),
      ("\(v1)/accounts:signInWithCustomToken", [.post: (.key, signInWithCustomToken)]),
      ("\(v1)/accounts:createAuthUri", [.post: (.key, createAuthUri)]),
      ("\(v1)/projects", [.get: (.key, projects)]),
      ("/securetoken.googleapis.com/v1/token", [.post: (.keyOnly, token)]),
      ("\(project)/accounts", [.post: (.owner, signUp)]),
      ("\(project)/accounts:lookup", [.post: (.owner, lookup)]),
      ("\(project)/accounts:update", [.post: (.owner, update)]),
      ("\(project)/accounts:delete", [.post: (.owner, delete)]),
      ("\(project)/accounts:sendOobCode", [.post: (.owner, sendOobCode)]),
      ("\(project)/accounts:batchGet", [.get: (.owner, batchGet)]),
      ("\(project)/accounts:batchDelete", [.post: (.owner, batchDelete)]),
      ("\(project)/accounts:query", [.post: (.owner, queryAccounts)]),
      ("\(relyingParty)downloadAccount", [.post: (.open, downloadAccount)]),
      (
        "/identitytoolkit.googleapis.com/v2/projects/{}/config",
        [.get: (.owner, config), .patch: (.owner, updateConfig)]
      ),
      ("\(emulator)/accounts", [.delete: (.local, deleteAllAccounts)]),
      ("\(emulator)/oobCodes", [.get: (.local, oobCodes)]),
      ("\(emulator)/verificationCodes", [.get: (.local, verificationCodes)]),
      (
        "\(emulator)/config",
        [.get: (.local, emulatorConfig), .patch: (.local, updateEmulatorConfig)]
      ),
      ("/emulator/action", [.get: (.open, action)]),
      ("\(identityToolkitV2)/accounts/mfaSignIn:start", [.post: (.key, startSecondFactor)]),
      ("\(identityToolkitV2)/accounts/mfaSignIn:finalize", [.post: (.key, finishSecondFactor)]),
    ]
    let elsewhere = [
      "accounts:signInWithIdp", "accounts:signInWithPhoneNumber", "accounts:sendVerificationCode",
    ].map { ("\(v1)/\($0)", [HTTPMethod.post: (Access.key, unimplemented($0))]) }
    // Factors are enrolled through GoTrue's `/factors`, the one place that keeps them.
    let enrollment = ["start", "finalize", "withdraw"].map {
      (
        "\(identityToolkitV2)/accounts/mfaEnrollment:\($0)",
        [
          HTTPMethod.post: (
            Access.key,
            unimplemented(
              "accounts/mfaEnrollment:\($0)",
              hint: " Enrol TOTP factors through GoTrue's /factors routes on this server.")
          )
        ]
      )
    }
    return (routes + elsewhere + enrollment).map { pattern, handlers in
      Route(
        pattern,
        handlers.mapValues { access, handler in
          wrap(handler, access: access, projectInPath: pattern.contains("/projects/{}"), emulation)
        })
    }
  }

  typealias Handler = @Sendable (FirebaseCall) async throws(IdentityToolkitError) -> HTTPResponse

  /// Who may call a route.
  enum Access {
    /// An API key, or `Bearer owner` (which makes the call privileged).
    case key
    /// `Bearer owner` only: the routes that name a project.
    case owner
    /// An API key; `Authorization` is not read (Secure Token).
    case keyOnly
    /// Anyone on this machine: the emulator's own routes.
    case local
    /// Anyone: the page an emailed link opens.
    case open
  }

  /// `handler` as a route's: the caller checked, the project in the path checked, every
  /// failure answered in Google's shape.
  private static func wrap(
    _ handler: @escaping Handler, access: Access, projectInPath: Bool,
    _ emulation: FirebaseEmulation
  ) -> Route.Handler {
    { context in
      do throws(IdentityToolkitError) {
        let privileged = try authorize(
          context.request, access: access, trust: context.trust, emulation)
        if projectInPath, context.parameters.first != emulation.projectID {
          throw mismatch(context.parameters.first ?? "", emulation.projectID)
        }
        let call = FirebaseCall(
          request: context.request, parameters: context.parameters, emulation: emulation,
          privileged: privileged, trust: context.trust)
        if access == .key, !projectInPath { try checkTargetProject(call) }
        return try await handler(call)
      } catch {
        return FirebaseAnswer.error(error)
      }
    }
  }

  /// Whether the caller is an admin, or the emulator's answer for a caller it refuses.
  ///
  /// `Bearer owner` (and `ya29.` tokens) make a call privileged as in the emulator, but only
  /// from this machine and no web page of another site (``LocalTrust``): beyond loopback an
  /// admin sends the service-role key as its bearer.
  static func authorize(
    _ request: HTTPRequest, access: Access, trust: LocalTrust, _ emulation: FirebaseEmulation
  ) throws(IdentityToolkitError) -> Bool {
    switch access {
    case .open: return false
    case .local:
      if let refusal = trust.refusal(request) {
        throw forbidden(refusal.reason("The emulator's own routes") + ".")
      }
      return false
    case .keyOnly:
      guard hasAPIKey(request) else { throw .missingAPIKey }
      return false
    case .key, .owner:
      if let bearer = bearer(request) {
        if bearer.lowercased() == "owner" || bearer.hasPrefix("ya29.") {
          if let refusal = trust.refusal(request) {
            throw forbidden(
              refusal.reason("Bearer owner") + "; elsewhere, send the service_role key as the "
                + "bearer token.")
          }
          return true
        }
        if (try? emulation.engine.authorizeAdmin(bearer)) != nil { return true }
        throw .invalidCredentials
      }
      guard hasAPIKey(request) else { throw .missingAPIKey }
      if access == .owner {
        throw .badRequest(
          .insufficientPermission, "Only authenticated requests can specify target_project_id.")
      }
      return false
    }
  }

  /// A body's `targetProjectId` (on routes that name no project in their path): only an
  /// admin may name one, as in the emulator, and only the project served.
  private static func checkTargetProject(_ call: FirebaseCall) throws(IdentityToolkitError) {
    // A body that cannot be read is the operation's to answer.
    guard let body = try? call.body(), let target = try? body.nonEmpty("targetProjectId") else {
      return
    }
    guard call.privileged else {
      throw .badRequest(
        .insufficientPermission, "Only authenticated requests can specify target_project_id.")
    }
    if target != call.emulation.projectID { throw mismatch(target, call.emulation.projectID) }
  }

  private static func bearer(_ request: HTTPRequest) -> String? {
    guard let header = request.header("Authorization"), header.lowercased().hasPrefix("bearer ")
    else { return nil }
    return String(header.dropFirst("bearer ".count))
  }

  private static func hasAPIKey(_ request: HTTPRequest) -> Bool {
    !(request.queryValue("key") ?? "").isEmpty || !(request.header("x-goog-api-key") ?? "").isEmpty
  }

  private static func forbidden(_ message: String) -> IdentityToolkitError {
    IdentityToolkitError(status: 403, message: message, statusName: "PERMISSION_DENIED")
  }

  /// The emulator's answer in single-project `ERROR` mode: one store, one project.
  static func mismatch(_ asked: String, _ served: String) -> IdentityToolkitError {
    .badRequest(
      IdentityToolkitErrorCode(
        rawValue:
          "Multiple projectIds are not recommended in single project mode. Requested project ID "
          + "\(asked), but the emulator is configured for \(served). authflow serve serves one "
          + "project: start it with --firebase-project \(asked) to serve that one."))
  }

  private static func unimplemented(_ operation: String, hint: String = "") -> Handler {
    { _ throws(IdentityToolkitError) in
      throw IdentityToolkitError(
        status: 501, message: "\(operation) is not implemented in authflow serve.\(hint)",
        statusName: "NOT_IMPLEMENTED")
    }
  }
}
