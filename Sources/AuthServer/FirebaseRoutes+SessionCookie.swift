import FirebaseEmulator
import HTTPServer
import IdentityToolkit

extension FirebaseRoutes {
  /// `POST /v1/projects/{project}:createSessionCookie` (an admin's): a session cookie for a
  /// signed-in user's ID token, as the emulator makes one.
  @Sendable static func createSessionCookie(_ call: FirebaseCall)
    async throws(IdentityToolkitError) -> HTTPResponse
  {
    let request = try call.decode(IdentityToolkitRequest.CreateSessionCookie.self)
    let cookie = try call.emulation.createSessionCookie(
      idToken: request.idToken, validDuration: request.validDuration)
    return call.json(IdentityToolkitSessionCookie(sessionCookie: cookie))
  }
}
