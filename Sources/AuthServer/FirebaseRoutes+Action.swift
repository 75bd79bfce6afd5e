import FirebaseEmulator
import GoTrueEngine
import HTTPServer
import IdentityToolkit

/// `GET /emulator/action?mode=…&oobCode=…&apiKey=…`: the page an emailed link opens, mode by
/// mode as the emulator's (`handlers.ts`), its answers JSON pages. Where a link leads on
/// (`continueUrl`) is judged as every redirect is: a URL the server's links may not lead to is
/// the site URL instead.
extension FirebaseRoutes {
  /// The page for the link's `mode`: `verifyEmail`, `verifyAndChangeEmail` and `recoverEmail`
  /// apply the code as `accounts:update` does; `resetPassword` asks for `newPassword`, then
  /// resets; `signIn` sends the browser on to the app with the code.
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
    let emulation = call.emulation
    let continueURL = request.queryValue("continueUrl").flatMap { url in
      url.isEmpty ? nil : emulation.engine.allowedRedirect(url)
    }
    switch request.queryValue("mode") {
    case "recoverEmail":
      let retry =
        "If you're trying to test the reverting email flow, try changing the email again to "
        + "generate a new link."
      guard (try? emulation.inspect(code: code))?.type == .recoverEmail else {
        return actionError("Requested mode does not match the OOB code provided.", retry)
      }
      guard let applied = try applied(code, emulation) else {
        return actionError(
          "Your request to revert your email has expired or the link has already been used.",
          retry)
      }
      return success("The email has been successfully reset.", email: applied.account.email)
    case "resetPassword":
      return try await resetPasswordPage(code, continueURL, request, emulation)
    case "verifyEmail":
      guard let applied = try applied(code, emulation) else {
        return actionError(
          "Your request to verify your email has expired or the link has already been used.",
          "Try verifying your email again.")
      }
      if let continueURL { return Answer.seeOther(continueURL) }
      return success("The email has been successfully verified.", email: applied.account.email)
    case "verifyAndChangeEmail":
      guard let applied = try applied(code, emulation) else {
        return actionError(
          "Your request to change your email has expired or the link has already been used.",
          "Try changing your email again.")
      }
      if let continueURL { return Answer.seeOther(continueURL) }
      return success("The email has been successfully changed.", newEmail: applied.newEmail)
    case "signIn":
      guard let continueURL else {
        return actionError(
          "Missing continueUrl query parameter",
          "To sign in, append &continueUrl=YOUR_APP_URL to the link.")
      }
      return Answer.seeOther(EmulatorRedirect.url(continueURL, with: request.query))
    default:
      return FirebaseAnswer.page(
        .members(["authEmulator": .members(["error": .string("Invalid mode")])]), status: 400)
    }
  }

  /// `mode=resetPassword`: the URL to open with `newPassword` until one is given, then the
  /// reset.
  private static func resetPasswordPage(
    _ code: String, _ continueURL: String?, _ request: HTTPRequest, _ emulation: FirebaseEmulation
  ) async throws(IdentityToolkitError) -> HTTPResponse {
    guard let info = try? emulation.inspect(code: code), info.type == .passwordReset else {
      return actionError(
        "Your request to reset your password has expired or the link has already been used.",
        "Try resetting your password again.")
    }
    let template = info.link + "&newPassword=NEW_PASSWORD_HERE"
    guard let password = request.queryValue("newPassword"), !password.isEmpty else {
      return actionError(
        "missing newPassword query parameter",
        "To reset the password for \(info.email), send an HTTP GET request to the following URL.",
        more: "You may use a web browser or any HTTP client, such as curl.", template: template)
    }
    guard password != "NEW_PASSWORD_HERE" else {
      return actionError(
        "newPassword must be something other than 'NEW_PASSWORD_HERE'",
        "The string 'NEW_PASSWORD_HERE' is just a placeholder.",
        more: "Please change the URL to specify a new password instead.", template: template)
    }
    let reset = try await emulation.resetPassword(code: code, newPassword: password)
    if let continueURL { return Answer.seeOther(continueURL) }
    return success("The password has been successfully updated.", email: reset.email)
  }

  /// The code applied as `accounts:update` applies it, or `nil` when it is no code to apply
  /// (wrong, used, expired, or one the update does not take); other failures (`EMAIL_EXISTS`)
  /// are the page's error in Google's shape, as in the emulator.
  private static func applied(_ code: String, _ emulation: FirebaseEmulation)
    throws(IdentityToolkitError) -> FirebaseAppliedCode?
  {
    do {
      return try emulation.applyCode(code)
    } catch {
      if error.status == 501 || [.invalidOOBCode, .expiredOOBCode].contains(error.code) {
        return nil
      }
      throw error
    }
  }

  private static func success(_ message: String, email: String? = nil, newEmail: String? = nil)
    -> HTTPResponse
  {
    FirebaseAnswer.page(
      .members([
        "authEmulator": .members([
          "success": .string(message), "email": .maybe(email), "newEmail": .maybe(newEmail),
        ])
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
