import FirebaseEmulator
import GoTrue
import GoTrueEngine
import HTTPServer
import IdentityToolkit

/// Secure Token, the admin's batch deletion, and the emulator's own routes.
extension FirebaseRoutes {
  /// `POST /securetoken.googleapis.com/v1/token`: a refresh grant, in a JSON or form body,
  /// checked in the emulator's order: a refresh token this server could not have issued,
  /// `MISSING_GRANT_TYPE`, `INVALID_GRANT_TYPE`, `MISSING_REFRESH_TOKEN`, then the token's own
  /// `INVALID_REFRESH_TOKEN` (used up, revoked, its user deleted) and `USER_DISABLED`.
  @Sendable static func token(_ call: FirebaseCall) async throws(IdentityToolkitError)
    -> HTTPResponse
  {
    let body: FirebaseBody
    if let form = call.request.formFields {
      body = FirebaseBody(form: form)
    } else {
      body = try call.body()
    }
    let request = try FirebaseFieldDecoder.decode(IdentityToolkitRequest.Token.self, from: body)
    // The emulator reads the refresh token before the operation's own checks.
    if let token = request.refreshToken.nonEmpty,
      !FirebaseEmulation.isWellFormed(refreshToken: token)
    {
      throw .badRequest(.invalidRefreshToken)
    }
    guard let grant = request.grantType.nonEmpty else {
      throw .badRequest(.missingGrantType)
    }
    guard grant == "refresh_token" else { throw .badRequest(.invalidGrantType) }
    guard let refreshToken = request.refreshToken.nonEmpty else {
      throw .badRequest(.missingRefreshToken)
    }
    let session = try await call.emulation.refresh(refreshToken: refreshToken)
    return call.json(
      SecureTokenResponse(
        idToken: session.idToken, accessToken: session.idToken,
        expiresIn: "\(session.expiresIn)", refreshToken: session.refreshToken,
        userId: session.account.id, projectId: "12345"))
  }

  /// `GET …/v1/projects`: the emulator's fixed answer (its fake project number).
  @Sendable static func projects(_ call: FirebaseCall) async throws(IdentityToolkitError)
    -> HTTPResponse
  {
    FirebaseAnswer.json(
      .members([
        "projectId": .string("12345"), "authorizedDomains": .array([.string("localhost")]),
      ]))
  }

  /// `GET /v1/recaptchaParams`: the emulator's fake reCAPTCHA token and site key, clearly fake
  /// so that no one sends them to Google (the SDKs turn reCAPTCHA off on an emulator).
  @Sendable static func recaptchaParams(_ call: FirebaseCall) async throws(IdentityToolkitError)
    -> HTTPResponse
  {
    FirebaseAnswer.json(
      .members([
        "kind": .string("identitytoolkit#GetRecaptchaParamResponse"),
        "recaptchaStoken": .string(
          "This-is-a-fake-token__Dont-send-this-to-the-Recaptcha-service__The-Auth-Emulator-"
            + "does-not-support-Recaptcha"),
        "recaptchaSiteKey": .string("Fake-key__Do-not-send-this-to-Recaptcha_"),
      ]))
  }

  /// `accounts:batchDelete` with `localIds` and `force`.
  @Sendable static func batchDelete(_ call: FirebaseCall) async throws(IdentityToolkitError)
    -> HTTPResponse
  {
    let request = try call.decode(IdentityToolkitRequest.BatchDelete.self)
    let refused = try call.emulation.delete(
      ids: request.localIds ?? [], force: request.force ?? false)
    return call.json(
      IdentityToolkitBatchDelete(
        errors: refused.map { .init(index: $0.index, localId: $0.id, message: $0.message) }))
  }

  // MARK: The emulator's own routes

  /// `GET /emulator/v1/projects/{id}/oobCodes`: the codes made in this process that still
  /// work, oldest first (`RECOVER_EMAIL` codes too).
  @Sendable static func oobCodes(_ call: FirebaseCall) async throws(IdentityToolkitError)
    -> HTTPResponse
  {
    let codes = try call.emulation.codes().map { code in
      EmulatorOobCode(
        email: code.email, newEmail: code.newEmail, requestType: code.type.rawValue,
        oobCode: code.code, oobLink: code.link)
    }
    return call.json(EmulatorOobCodes(oobCodes: codes))
  }

  /// `GET /emulator/v1/projects/{id}/verificationCodes`: the codes texted in this process
  /// that still wait, oldest first.
  @Sendable static func verificationCodes(_ call: FirebaseCall) async throws(IdentityToolkitError)
    -> HTTPResponse
  {
    let codes = call.emulation.verificationCodes().map { texted in
      EmulatorVerificationCode(
        phoneNumber: texted.phoneNumber, sessionInfo: texted.sessionInfo, code: texted.code)
    }
    return call.json(EmulatorVerificationCodes(verificationCodes: codes))
  }

  /// `DELETE /emulator/v1/projects/{id}/accounts`: every account of the store.
  @Sendable static func deleteAllAccounts(_ call: FirebaseCall) async throws(IdentityToolkitError)
    -> HTTPResponse
  {
    try call.emulation.deleteAllAccounts()
    return FirebaseAnswer.json(.object([]))
  }
}
