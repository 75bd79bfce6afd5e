import FirebaseEmulator
import HTTPServer
import IdentityToolkit
import LocalPages

/// `accounts:signInWithCustomToken` (legacy `verifyCustomToken`): the unsigned custom tokens
/// the Admin SDKs make in emulator mode, or plain JSON, as the emulator takes them.
extension FirebaseRoutes {
  /// Signs in with `token`. `MISSING_CUSTOM_TOKEN` without one; then, since a custom token
  /// chooses the user it signs in and nothing here can check who made it, the server takes it
  /// only where it takes `Bearer owner` (``LocalTrust``: this machine, addressed by a loopback
  /// name, no page of another site); elsewhere it is `INVALID_CUSTOM_TOKEN`, saying why. Then
  /// the token's own errors (``FirebaseCustomToken/init(parsing:)``) and `USER_DISABLED`.
  @Sendable static func signInWithCustomToken(_ call: FirebaseCall)
    async throws(IdentityToolkitError) -> HTTPResponse
  {
    let request = try call.decode(IdentityToolkitRequest.SignInWithCustomToken.self)
    guard let token = request.token.nonEmpty else {
      throw .badRequest(.missingCustomToken)
    }
    if let refusal = call.trust.refusal(call.request) {
      throw .badRequest(.invalidCustomToken, refusedCustomToken(refusal))
    }
    let parsed = try FirebaseCustomToken(parsing: token)
    let (session, isNewUser) = try await call.emulation.signIn(customToken: parsed)
    return call.json(
      IdentityToolkitCustomTokenSignIn(
        isNewUser: isNewUser, idToken: session.idToken, refreshToken: session.refreshToken,
        expiresIn: "\(session.expiresIn)"))
  }

  /// Why a custom token from beyond this machine is refused, in the emulator's `((…))` form
  /// for explanations of its own.
  static func refusedCustomToken(_ refusal: LocalTrust.Refusal) -> String {
    "((" + refusal.reason("signInWithCustomToken") + ": a custom token chooses the user it "
      + "signs in, so authflow serve takes one only where it takes Bearer owner.))"
  }
}
