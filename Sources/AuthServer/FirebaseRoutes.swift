import FirebaseEmulator
import GoTrue
import GoTrueEngine
import HTTPServer
import IdentityToolkit
import LocalPages

/// The Firebase Auth emulator's REST surface (`firebase-tools`, `src/emulator/auth`), served
/// by the same engine: production host names become path prefixes, as in the emulator.
enum FirebaseRoutes {
  static let identityToolkit = "/identitytoolkit.googleapis.com/v1"
  static let relyingParty = "/www.googleapis.com/identitytoolkit/v3/relyingparty/"

  /// Whether `path` is the Firebase surface's (its answers and errors are Google's).
  static func serves(_ path: String) -> Bool {
    path == "/"
      || [
        "/identitytoolkit.googleapis.com/", "/securetoken.googleapis.com/",
        "/www.googleapis.com/", "/emulator/",
      ].contains { path.hasPrefix($0) }
  }

  /// A legacy v3 path (`/www.googleapis.com/identitytoolkit/v3/relyingparty/verifyPassword`,
  /// what the iOS SDK calls on an emulator) as the v1 path it stands for
  /// (``IdentityToolkitOperation/legacyName``), and `…/v1/projects/{id}:queryAccounts` as
  /// `…/v1/projects/{id}/accounts:query` (the same operation); others unchanged.
  static func rewritten(_ path: String) -> String {
    let projects = identityToolkit + "/projects/"
    let query = ":queryAccounts"
    if path.hasPrefix(projects), path.hasSuffix(query) {
      let id = path.dropFirst(projects.count).dropLast(query.count)
      if !id.isEmpty, !id.contains("/") { return projects + id + "/accounts:query" }
    }
    guard path.hasPrefix(relyingParty),
      let operation = IdentityToolkitOperation.byLegacyName[
        String(path.dropFirst(relyingParty.count))]
    else { return path }
    return operation.emulatorPath
  }

  /// What serves each operation of the table (``IdentityToolkitOperation/all``).
  static let handlers: [(IdentityToolkitOperation, Handler)] = [
    (.signUp, signUp), (.signInWithPassword, signIn), (.sendOobCode, sendOobCode),
    (.resetPassword, resetPassword), (.signInWithEmailLink, signInWithEmailLink),
    (.update, update), (.lookup, lookup), (.delete, delete),
    (.signInWithCustomToken, signInWithCustomToken), (.createAuthUri, createAuthUri),
    (.projects, projects), (.recaptchaParams, recaptchaParams), (.token, token),
    (.adminSignUp, signUp), (.adminLookup, lookup),
    (.adminUpdate, update), (.adminDelete, delete), (.adminSendOobCode, sendOobCode),
    (.createSessionCookie, createSessionCookie), (.batchGet, batchGet),
    (.batchDelete, batchDelete), (.batchCreate, batchCreate), (.query, queryAccounts),
    (.downloadAccount, downloadAccount), (.uploadAccount, uploadAccount), (.config, config),
    (.updateConfig, updateConfig),
    (.deleteAllAccounts, deleteAllAccounts), (.oobCodes, oobCodes),
    (.verificationCodes, verificationCodes), (.emulatorConfig, emulatorConfig),
    (.updateEmulatorConfig, updateEmulatorConfig), (.action, action),
    (.startSecondFactor, startSecondFactor), (.finishSecondFactor, finishSecondFactor),
    (.signInWithIdp, unimplemented("accounts:signInWithIdp")),
    (.signInWithPhoneNumber, signInWithPhoneNumber),
    (.sendVerificationCode, sendVerificationCode),
    // Factors are enrolled through GoTrue's `/factors`, the one place that keeps them.
    (.startEnrollment, unimplemented("accounts/mfaEnrollment:start", hint: enrolHint)),
    (.finishEnrollment, unimplemented("accounts/mfaEnrollment:finalize", hint: enrolHint)),
    (.withdrawEnrollment, unimplemented("accounts/mfaEnrollment:withdraw", hint: enrolHint)),
  ]

  private static let enrolHint =
    " Enrol TOTP factors through GoTrue's /factors routes on this server."

  /// Every route, answered by `emulation`: one per operation, its caller checked as the
  /// operation says; then the emulator's operations this server does not serve
  /// (``FirebaseUnserved``).
  static func all(_ emulation: FirebaseEmulation) -> [Route] {
    served(emulation) + FirebaseUnserved.routes
  }

  /// The routes of the operations this server serves.
  static func served(_ emulation: FirebaseEmulation) -> [Route] {
    handlers.compactMap { operation, handler in
      guard let method = HTTPMethod(rawValue: operation.method) else { return nil }
      return Route(
        operation.emulatorPath,
        [
          method: wrap(
            handler, access: operation.access, projectInPath: operation.path.contains("{project}"),
            emulation)
        ])
    }
  }

  typealias Handler = @Sendable (FirebaseCall) async throws(IdentityToolkitError) -> HTTPResponse

  typealias Access = IdentityToolkitOperation.Access

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
