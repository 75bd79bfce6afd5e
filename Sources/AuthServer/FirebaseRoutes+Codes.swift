import FirebaseEmulator
import GoTrueEngine
import HTTPServer
import IdentityToolkit

/// Out-of-band codes over HTTP: sending them, looking at and spending them (a password reset,
/// `accounts:update` with `oobCode`), and signing in by email link.
extension FirebaseRoutes {
  /// `accounts:sendOobCode` (also `projects/{id}/accounts:sendOobCode` and the legacy
  /// `getOobConfirmationCode`). The email goes to the outbox (Mailpit's API shows it); an
  /// admin's `returnOobLink` gets the code and link in the answer instead. Either way the code
  /// is listed at `/emulator/v1/projects/{id}/oobCodes`.
  @Sendable static func sendOobCode(_ call: FirebaseCall) async throws(IdentityToolkitError)
    -> HTTPResponse
  {
    let wire = try call.decode(IdentityToolkitRequest.SendOobCode.self)
    var request = FirebaseCodeRequest()
    request.type = try requestType(wire.requestType)
    (request.email, request.newEmail) = (wire.email, wire.newEmail)
    (request.idToken, request.continueURL) = (wire.idToken, wire.continueUrl)
    request.returnLink = wire.returnOobLink ?? false
    request.privileged = call.privileged
    let sent = try call.emulation.sendCode(request)
    let code = request.returnLink ? sent.code : nil
    return call.json(
      IdentityToolkitOobCode(email: sent.email, oobCode: code?.code, oobLink: code?.link))
  }

  /// `requestType` by name. As the emulator's schema reads it, a number (or a numeric string)
  /// is the name at that index; any other value is not one of the allowed names.
  private static func requestType(_ value: String?) throws(IdentityToolkitError) -> String? {
    guard let value else { return nil }
    if requestTypes.contains(value) { return value }
    if let index = Int(value), requestTypes.indices.contains(index) { return requestTypes[index] }
    throw .invalidPayload("/requestType should be equal to one of the allowed values")
  }

  /// The names `requestType` may take, in the order of their numbers.
  static let requestTypes = [
    "OOB_REQ_TYPE_UNSPECIFIED", "PASSWORD_RESET", "OLD_EMAIL_AGREE", "NEW_EMAIL_ACCEPT",
    "VERIFY_EMAIL", "RECOVER_EMAIL", "EMAIL_SIGNIN", "VERIFY_AND_CHANGE_EMAIL",
    "REVERT_SECOND_FACTOR_ADDITION",
  ]

  /// `accounts:resetPassword`: with `newPassword`, spends a `PASSWORD_RESET` code and sets
  /// the password; without, only says what the code is for (not the address of an email
  /// sign-in code, which the client must know already).
  @Sendable static func resetPassword(_ call: FirebaseCall) async throws(IdentityToolkitError)
    -> HTTPResponse
  {
    let request = try call.decode(IdentityToolkitRequest.ResetPassword.self)
    guard let code = request.oobCode.nonEmpty else { throw .badRequest(.missingOOBCode) }
    let info: FirebaseCodeInfo
    if let password = request.newPassword.nonEmpty {
      info = try await call.emulation.resetPassword(code: code, newPassword: password)
    } else {
      info = try call.emulation.inspect(code: code)
    }
    return call.json(
      IdentityToolkitResetPassword(
        email: info.type == .emailSignIn ? nil : info.email, requestType: info.type.rawValue,
        newEmail: info.newEmail))
  }

  /// `accounts:update` with `oobCode`: applies the code, ignoring the other fields, or `nil`
  /// when the body has no code. The update route calls it once the caller's rights are
  /// checked, before it reads any change.
  static func applyCode(_ call: FirebaseCall, _ body: FirebaseBody) throws(IdentityToolkitError)
    -> HTTPResponse?
  {
    guard let code = try body.nonEmpty("oobCode") else { return nil }
    let applied = try call.emulation.applyCode(code)
    var answer = FirebaseAnswer.updated(applied.account, newEmail: applied.newEmail)
    // The emulator answers the address even when there is none.
    answer.email = applied.account.email
    return call.json(answer)
  }

  /// `accounts:signInWithEmailLink` (legacy `emailLinkSignin`): signs in with an
  /// `EMAIL_SIGNIN` code and the address it was sent to, making the account if there is none
  /// or moving the user of `idToken` to that address.
  @Sendable static func signInWithEmailLink(_ call: FirebaseCall)
    async throws(IdentityToolkitError) -> HTTPResponse
  {
    let request = try call.decode(IdentityToolkitRequest.SignInWithEmailLink.self)
    let (outcome, isNewUser) = try call.emulation.signInWithEmailLink(
      email: request.email, code: request.oobCode, idToken: request.idToken)
    switch outcome {
    case .signedIn(let session):
      return call.json(
        IdentityToolkitEmailLinkSignIn(
          email: session.account.email, localId: session.account.id, isNewUser: isNewUser,
          idToken: session.idToken, refreshToken: session.refreshToken,
          expiresIn: "\(session.expiresIn)"))
    case .secondFactorPending(let pending):
      var answer = FirebaseAnswer.pending(
        pending, kind: "identitytoolkit#EmailLinkSigninResponse", registered: nil)
      answer.email = pending.account.email
      answer.isNewUser = isNewUser
      return call.json(answer)
    }
  }
}
