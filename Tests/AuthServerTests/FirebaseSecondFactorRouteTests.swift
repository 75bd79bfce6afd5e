import AuthCrypto
import Foundation
import GoTrue
import GoTrueEngine
import HTTPServer
import Testing

@testable import AuthServer

/// Identity Platform's TOTP MFA over HTTP, for a factor enrolled through GoTrue's `/factors`:
/// the sign-in's `mfaPendingCredential` and `mfaInfo`, v2's `accounts/mfaSignIn:finalize`, and
/// `mfaInfo` in lookups.
struct FirebaseSecondFactorRouteTests {
  /// A server whose demo user has a verified TOTP factor; the factor's id and generator.
  private func withFactor() async throws -> (FirebaseTestServer, String, TOTP) {
    let server = try FirebaseTestServer()
    server.clock.advance(by: 15)
    let session = try await server.engine.signIn(
      email: "test@example.com", password: "TestPassword123!")
    let factor = try await server.engine.enrollTOTP(
      accessToken: session.accessToken, friendlyName: "Phone", issuer: "")
    let setup = try #require(factor.totp)
    let totp = TOTP(secret: try #require(Base32.decode(setup.secret)))
    let challenge = try server.engine.challengeFactor(
      accessToken: session.accessToken, factorID: factor.id, clientIP: "127.0.0.1")
    _ = try await server.engine.verifyFactor(
      accessToken: session.accessToken, factorID: factor.id, challengeID: challenge.id,
      code: code(totp, server), clientIP: "127.0.0.1")
    server.clock.advance(by: 30)
    return (server, factor.id, totp)
  }

  private func code(_ totp: TOTP, _ server: FirebaseTestServer) -> String {
    totp.code(at: Int64(server.clock.now.timeIntervalSince1970))
  }

  private static let finalize = "/identitytoolkit.googleapis.com/v2/accounts/mfaSignIn:finalize"

  @Test func aPasswordSignInAnswersThePendingCredentialAndTheFactors() async throws {
    let (server, factorID, totp) = try await withFactor()
    let reply = await server.call(
      "signInWithPassword",
      #"{"email":"test@example.com","password":"TestPassword123!","returnSecureToken":true}"#)
    #expect(reply.status == 200, "\(reply.text)")
    let object = try #require(reply.object)
    #expect(
      Set(object.keys)
        == ["kind", "registered", "localId", "email", "mfaPendingCredential", "mfaInfo"])
    #expect(object["idToken"] == nil && object["refreshToken"] == nil)
    let info = try #require((object["mfaInfo"] as? [[String: Any]])?.first)
    #expect(info["mfaEnrollmentId"] as? String == factorID)
    #expect(info["displayName"] as? String == "Phone")
    #expect(info["enrolledAt"] as? String == "2025-01-01T00:00:15.000Z")
    #expect((info["totpInfo"] as? [String: Any])?.isEmpty == true)
    let credential = try #require(object["mfaPendingCredential"] as? String)

    let wrong = code(totp, server) == "123456" ? "654321" : "123456"
    let refused = await server.send(
      .post, Self.finalize,
      body: #"""
        {"mfaPendingCredential":"\#(credential)","mfaEnrollmentId":"\#(factorID)",
         "totpVerificationInfo":{"verificationCode":"\#(wrong)"}}
        """#, query: [("key", "k")])
    #expect(refused.status == 400)
    #expect(refused.googleMessage == "INVALID_CODE")

    let finished = await server.send(
      .post, Self.finalize,
      body: #"""
        {"mfaPendingCredential":"\#(credential)","mfaEnrollmentId":"\#(factorID)",
         "totpVerificationInfo":{"verificationCode":"\#(code(totp, server))"}}
        """#, query: [("key", "k")])
    #expect(finished.status == 200, "\(finished.text)")
    let tokens = try #require(finished.object)
    #expect(Set(tokens.keys) == ["idToken", "refreshToken"])
    let idToken = try #require(tokens["idToken"] as? String)
    let lookup = await server.call("lookup", #"{"idToken":"\#(idToken)"}"#)
    let user = try #require((lookup.object?["users"] as? [[String: Any]])?.first)
    #expect((user["mfaInfo"] as? [[String: Any]])?.first?["mfaEnrollmentId"] as? String == factorID)
  }

  @Test func theSecondStepAnswersAsIdentityPlatformForWhatItDoesNotTake() async throws {
    let (server, _, _) = try await withFactor()
    let start = await server.send(
      .post, "/identitytoolkit.googleapis.com/v2/accounts/mfaSignIn:start",
      body: #"{"mfaPendingCredential":"x","mfaEnrollmentId":"y"}"#, query: [("key", "k")])
    #expect(start.googleMessage == "OPERATION_NOT_ALLOWED : SMS based MFA not enabled.")
    let phone = await server.send(
      .post, Self.finalize, body: #"{"mfaPendingCredential":"x","phoneVerificationInfo":{}}"#,
      query: [("key", "k")])
    #expect(phone.googleMessage == "OPERATION_NOT_ALLOWED : SMS based MFA not enabled.")
    let missing = await server.send(.post, Self.finalize, body: "{}", query: [("key", "k")])
    #expect(missing.googleMessage == "MISSING_CREDENTIAL : Please set MFA Pending Credential.")
    let neither = await server.send(
      .post, Self.finalize, body: #"{"mfaPendingCredential":"x"}"#, query: [("key", "k")])
    #expect(neither.googleMessage == "INVALID_ARGUMENT : MFA provider not supported!")
    let enrol = await server.send(
      .post, "/identitytoolkit.googleapis.com/v2/accounts/mfaEnrollment:start",
      body: #"{"idToken":"x","totpEnrollmentInfo":{}}"#, query: [("key", "k")])
    #expect(enrol.status == 501)
    let noKey = await server.send(.post, Self.finalize, body: "{}")
    #expect(noKey.status == 403, "an API key is asked for first")
  }
}
