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
    if try call.body().has("phoneVerificationInfo") {
      throw .badRequest(.operationNotAllowed, "SMS based MFA not enabled.")
    }
    let request = try call.decode(IdentityToolkitRequest.FinalizeSecondFactor.self)
    guard request.mfaPendingCredential?.isEmpty == false else {
      throw .badRequest("MISSING_CREDENTIAL", "Please set MFA Pending Credential.")
    }
    guard let totp = request.totpVerificationInfo else {
      throw .badRequest("INVALID_ARGUMENT", "MFA provider not supported!")
    }
    let session = try await call.emulation.finishSecondFactor(
      credential: request.mfaPendingCredential, enrollmentID: request.mfaEnrollmentId,
      code: totp.verificationCode)
    return call.json(
      IdentityToolkitMFAFinalized(idToken: session.idToken, refreshToken: session.refreshToken))
  }
}
