import FirebaseEmulator
import HTTPServer
import IdentityToolkit

/// Phone sign-in: a code texted, then the code signing the number in
/// (``FirebaseEmulation/signIn(phone:)``).
extension FirebaseRoutes {
  /// `accounts:sendVerificationCode`: the session of a code texted to `phoneNumber`; the code
  /// is listed at the emulator's `verificationCodes`.
  @Sendable static func sendVerificationCode(_ call: FirebaseCall)
    async throws(IdentityToolkitError) -> HTTPResponse
  {
    let request = try call.decode(IdentityToolkitRequest.SendVerificationCode.self)
    let sessionInfo = try call.emulation.sendVerificationCode(phoneNumber: request.phoneNumber)
    return call.json(IdentityToolkitVerificationSent(sessionInfo: sessionInfo))
  }

  /// `accounts:signInWithPhoneNumber`: the user of the number (made if none has it) or of the
  /// ID token signed in with it; or, when the number is another account's, a proof of it.
  @Sendable static func signInWithPhoneNumber(_ call: FirebaseCall)
    async throws(IdentityToolkitError) -> HTTPResponse
  {
    let request = try call.decode(IdentityToolkitRequest.SignInWithPhoneNumber.self)
    switch try await call.emulation.signIn(phone: request) {
    case .signedIn(let session, let phoneNumber, let isNewUser):
      return call.json(
        IdentityToolkitPhoneSignIn(
          isNewUser: isNewUser, phoneNumber: phoneNumber, localId: session.account.id,
          idToken: session.idToken, refreshToken: session.refreshToken,
          expiresIn: "\(session.expiresIn)"))
    case .proofOnly(let phoneNumber, let proof, let expiresIn):
      return call.json(
        IdentityToolkitPhoneSignIn(
          phoneNumber: phoneNumber, temporaryProof: proof,
          temporaryProofExpiresIn: "\(expiresIn)"))
    }
  }
}
