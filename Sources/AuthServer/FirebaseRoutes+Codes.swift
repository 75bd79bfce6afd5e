import FirebaseEmulator
import GoTrueEngine
import HTTPServer
import IdentityToolkit

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Out-of-band codes: sending them, checking and spending them, and the page their links open.
extension FirebaseRoutes {
  /// `accounts:sendOobCode` for `VERIFY_EMAIL` and `PASSWORD_RESET`. The email goes to the
  /// outbox (Mailpit's API shows it); an admin's `returnOobLink` gets the code and link in the
  /// answer instead. Either way the code is listed at `/emulator/v1/projects/{id}/oobCodes`.
  @Sendable static func sendOobCode(_ call: FirebaseCall) async throws(IdentityToolkitError)
    -> HTTPResponse
  {
    let body = try call.body()
    let type = try body.string("requestType") ?? ""
    guard !type.isEmpty, type != "OOB_REQ_TYPE_UNSPECIFIED" else {
      throw .badRequest(.missingRequestType)
    }
    let returnLink = try body.bool("returnOobLink") ?? false
    if returnLink, !call.privileged { throw .badRequest(.insufficientPermission) }
    let continueURL = try body.nonEmpty("continueUrl")
    if let continueURL { try checkContinueURL(continueURL, call.emulation) }
    let emulation = call.emulation
    let code: FirebaseOutOfBandCode?
    var email: String?
    switch type {
    case FirebaseCodeType.passwordReset.rawValue:
      guard let address = try body.nonEmpty("email") else { throw .badRequest(.missingEmail) }
      email = address.lowercased()
      code = try emulation.sendPasswordReset(
        email: address, mailed: !returnLink, continueURL: continueURL)
    case FirebaseCodeType.verifyEmail.rawValue:
      // As in production, `returnOobLink` marks an admin's request (by email, no ID token).
      if returnLink, try body.nonEmpty("idToken") == nil {
        guard let address = try body.nonEmpty("email") else { throw .badRequest(.missingEmail) }
        code = try emulation.sendVerification(
          email: address, mailed: false, continueURL: continueURL)
      } else {
        code = try emulation.sendVerification(
          idToken: try body.string("idToken") ?? "", mailed: !returnLink,
          continueURL: continueURL)
      }
    default:
      throw notImplemented("\(type) is not implemented in authflow serve.")
    }
    return call.json(
      IdentityToolkitOobCode(
        email: code?.email ?? email, oobCode: returnLink ? code?.code : nil,
        oobLink: returnLink ? code?.link : nil))
  }

  /// A `continueUrl` must be absolute, and lead where the server's own links may lead (the
  /// site URL's origin, or loopback), as production allows only authorized domains.
  private static func checkContinueURL(_ url: String, _ emulation: FirebaseEmulation)
    throws(IdentityToolkitError)
  {
    guard let components = URLComponents(string: url), components.scheme?.isEmpty == false,
      components.host?.isEmpty == false
    else {
      throw .badRequest(
        .invalidContinueURI, "((expected an absolute URI with valid scheme and host))")
    }
    guard emulation.engine.allowedRedirect(url) == url else {
      throw .badRequest("UNAUTHORIZED_DOMAIN", "Domain not allowlisted by project")
    }
  }

  /// `accounts:resetPassword`: with `newPassword`, spends a `PASSWORD_RESET` code and sets
  /// the password; without, only says what the code is for.
  @Sendable static func resetPassword(_ call: FirebaseCall) async throws(IdentityToolkitError)
    -> HTTPResponse
  {
    let body = try call.body()
    guard let code = try body.nonEmpty("oobCode") else { throw .badRequest(.missingOOBCode) }
    let answer: IdentityToolkitResetPassword
    if let password = try body.nonEmpty("newPassword") {
      let email = try await call.emulation.resetPassword(code: code, newPassword: password)
      answer = IdentityToolkitResetPassword(
        email: email, requestType: FirebaseCodeType.passwordReset.rawValue)
    } else {
      let (email, type) = try call.emulation.inspect(code: code)
      answer = IdentityToolkitResetPassword(email: email, requestType: type.rawValue)
    }
    return call.json(answer)
  }

  /// `GET /emulator/action?mode=…&oobCode=…&apiKey=…`: what an emailed link opens.
  /// `verifyEmail` verifies; `resetPassword` sets `newPassword` from the query. Answers the
  /// emulator's JSON page, or `303` to `continueUrl` once done.
  @Sendable static func action(_ call: FirebaseCall) async throws(IdentityToolkitError)
    -> HTTPResponse
  {
    let request = call.request
    guard let key = request.queryValue("apiKey"), !key.isEmpty else {
      return actionError(
        "missing apiKey query parameter",
        "Please modify the URL to specify an apiKey, such as ...&apiKey=YOUR_API_KEY")
    }
    guard let code = request.queryValue("oobCode"), !code.isEmpty else {
      return actionError(
        "missing oobCode query parameter",
        "Please modify the URL to specify an oobCode, such as ...&oobCode=YOUR_OOB_CODE")
    }
    let continueURL = request.queryValue("continueUrl").flatMap { $0.isEmpty ? nil : $0 }
    let emulation = call.emulation
    switch request.queryValue("mode") {
    case "verifyEmail":
      let account: FirebaseAccount
      do {
        account = try emulation.applyVerification(code: code)
      } catch {
        return actionError(
          "Your request to verify your email has expired or the link has already been used.",
          "Try verifying your email again.")
      }
      return done(
        "The email has been successfully verified.", account.email,
        continueURL.map { emulation.engine.allowedRedirect($0) })
    case "resetPassword":
      guard let inspected = try? emulation.inspect(code: code), inspected.type == .passwordReset
      else {
        return actionError(
          "Your request to reset your password has expired or the link has already been used.",
          "Try resetting your password again.")
      }
      let template =
        EmulatorActionLink.url(
          base: emulation.linkBase, mode: "resetPassword", oobCode: code,
          continueURL: continueURL) + "&newPassword=NEW_PASSWORD_HERE"
      guard let password = request.queryValue("newPassword"), !password.isEmpty else {
        return actionError(
          "missing newPassword query parameter",
          "To reset the password for \(inspected.email), send an HTTP GET request to the "
            + "following URL.",
          more: "You may use a web browser or any HTTP client, such as curl.",
          template: template)
      }
      guard password != "NEW_PASSWORD_HERE" else {
        return actionError(
          "newPassword must be something other than 'NEW_PASSWORD_HERE'",
          "The string 'NEW_PASSWORD_HERE' is just a placeholder.",
          more: "Please change the URL to specify a new password instead.", template: template)
      }
      let reset = try await emulation.resetPassword(code: code, newPassword: password)
      return done(
        "The password has been successfully updated.", reset,
        continueURL.map { emulation.engine.allowedRedirect($0) })
    default:
      return FirebaseAnswer.page(
        .members(["authEmulator": .members(["error": .string("Invalid mode")])]), status: 400)
    }
  }

  private static func done(_ message: String, _ email: String, _ continueURL: String?)
    -> HTTPResponse
  {
    if let continueURL { return Answer.seeOther(continueURL) }
    return FirebaseAnswer.page(
      .members([
        "authEmulator": .members(["success": .string(message), "email": .string(email)])
      ]))
  }

  private static func actionError(
    _ error: String, _ instructions: String, more: String? = nil, template: String? = nil
  ) -> HTTPResponse {
    FirebaseAnswer.page(
      .members([
        "authEmulator": .members([
          "error": .string(error), "instructions": .string(instructions),
          "instructions2": .maybe(more), "urlTemplate": .maybe(template),
        ])
      ]), status: 400)
  }
}
