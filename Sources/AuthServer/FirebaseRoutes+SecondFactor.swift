import FirebaseEmulator
import HTTPServer
import IdentityToolkit

/// The second step of a sign-in (Identity Toolkit v2's `accounts/mfaSignIn`), for a user whose
/// TOTP factor was enrolled through GoTrue's `/factors`.
extension FirebaseRoutes {

  /// `accounts/mfaSignIn:start`: only phone factors start a second step (a TOTP code is sent
  /// straight to `:finalize`), and serve has no SMS, so this is the emulator's answer with SMS
  /// MFA off.
  @Sendable static func startSecondFactor(_ call: FirebaseCall)
    async throws(IdentityToolkitError) -> HTTPResponse
  {
    throw .badRequest(.operationNotAllowed, "SMS based MFA not enabled.")
  }

  /// `accounts/mfaSignIn:finalize`: with `totpVerificationInfo`, the session the sign-in of
  /// `mfaPendingCredential` waited for (``FirebaseEmulation/finishSecondFactor``); a phone's
  /// `phoneVerificationInfo` is the emulator's answer with SMS MFA off, and neither is
  /// `INVALID_ARGUMENT : MFA provider not supported!`.
  @Sendable static func finishSecondFactor(_ call: FirebaseCall)
    async throws(IdentityToolkitError) -> HTTPResponse
  {
    let body = try call.body()
    if body.has("phoneVerificationInfo") {
      throw .badRequest(.operationNotAllowed, "SMS based MFA not enabled.")
    }
    let credential = try body.string("mfaPendingCredential")
    guard credential?.isEmpty == false else {
      throw .badRequest("MISSING_CREDENTIAL", "Please set MFA Pending Credential.")
    }
    guard let totp = try body.object("totpVerificationInfo") else {
      throw .badRequest("INVALID_ARGUMENT", "MFA provider not supported!")
    }
    let session = try await call.emulation.finishSecondFactor(
      credential: credential, enrollmentID: try body.string("mfaEnrollmentId"),
      code: try totp.string("verificationCode"))
    return call.json(
      IdentityToolkitMFAFinalized(idToken: session.idToken, refreshToken: session.refreshToken))
  }
}
