import AuthCrypto
import Foundation
import GoTrue
import GoTrueEngine
import HTTPServer
import Testing

@testable import AuthServer

/// The `/factors` routes and the admin API's factor routes over HTTP: GoTrue's bodies, keys and
/// errors, and the client address a challenge is bound to.
struct MFARouteTests {
  /// The demo user's bearer header and an enrolled factor's id and generator.
  private func enrolled(_ server: TestServer) async throws
    -> (bearer: [(String, String)], factorID: String, totp: TOTP)
  {
    let token = try #require(try await server.signIn()["access_token"] as? String)
    let bearer = [("Authorization", "Bearer \(token)")]
    let reply = await server.send(
      .post, "/factors", json: #"{"factor_type":"totp","friendly_name":"Phone"}"#,
      headers: bearer)
    #expect(reply.status == 200, "\(reply.text)")
    let object = try #require(reply.object)
    #expect(Set(object.keys) == ["id", "type", "friendly_name", "totp"])
    #expect(object["type"] as? String == "totp")
    #expect(object["friendly_name"] as? String == "Phone")
    let totp = try #require(object["totp"] as? [String: Any])
    #expect(Set(totp.keys) == ["qr_code", "secret", "uri"])
    #expect((totp["qr_code"] as? String)?.hasSuffix("</svg>\n") == true)
    let text = try #require(totp["secret"] as? String)
    let secret = try #require(Base32.decode(text))
    return (bearer, try #require(object["id"] as? String), TOTP(secret: secret))
  }

  private func code(_ totp: TOTP, _ server: TestServer) -> String {
    totp.code(at: Int64(server.clock.now.timeIntervalSince1970))
  }

  @Test func aUsersFactorsAppearAsGoTrueWritesThem() async throws {
    let server = try TestServer()
    let token = try #require(try await server.signIn()["access_token"] as? String)
    let bearer = [("Authorization", "Bearer \(token)")]
    #expect(await server.send(.get, "/user", headers: bearer).object?["factors"] == nil)
    let enrolment = await server.send(
      .post, "/factors", json: #"{"factor_type":"totp"}"#, headers: bearer)
    #expect(enrolment.object?["friendly_name"] as? String == "", "sent even when empty")
    let user = try #require(await server.send(.get, "/user", headers: bearer).object)
    let factor = try #require((user["factors"] as? [[String: Any]])?.first)
    #expect(
      Set(factor.keys)
        == [
          "id", "created_at", "updated_at", "status", "factor_type", "phone", "last_challenged_at",
        ])
    #expect(factor["phone"] as? String == "")
    #expect(factor["last_challenged_at"] is NSNull)
    #expect(factor["created_at"] as? String == "2025-01-01T00:00:00Z")
  }

  @Test func aChallengeAnswersFromTheAddressItWasMadeFrom() async throws {
    let server = try TestServer()
    let (bearer, factorID, totp) = try await enrolled(server)
    let challenge = await server.send(
      .post, "/factors/\(factorID)/challenge", json: "{}", headers: bearer,
      peer: "127.0.0.1:50000")
    let object = try #require(challenge.object)
    #expect(Set(object.keys) == ["id", "type", "expires_at"])
    #expect(object["expires_at"] as? Int == 1_735_689_600 + 300)
    let challengeID = try #require(object["id"] as? String)
    let body = #"{"challenge_id":"\#(challengeID)","code":"\#(code(totp, server))"}"#
    let elsewhere = await server.send(
      .post, "/factors/\(factorID)/verify", json: body, headers: bearer, peer: "[::1]:50001")
    #expect(elsewhere.status == 422)
    #expect(elsewhere.errorCode == "mfa_ip_address_mismatch")
    let verified = await server.send(
      .post, "/factors/\(factorID)/verify", json: body, headers: bearer, peer: "127.0.0.1:50002")
    #expect(verified.status == 200, "\(verified.text)")
    let session = try #require(verified.object)
    #expect(
      Set(session.keys).isSuperset(of: [
        "access_token", "token_type", "expires_in", "expires_at", "refresh_token", "user",
      ]))
    let user = try #require(session["user"] as? [String: Any])
    #expect((user["factors"] as? [[String: Any]])?.first?["status"] as? String == "verified")
    #expect(
      GoTrueRoutes.clientAddress(HTTPRequest(method: .get, path: "/", peer: "[::1]:9")) == "::1")
    #expect(GoTrueRoutes.clientAddress(HTTPRequest(method: .get, path: "/", peer: "::1")) == "::1")
  }

  @Test func verifyReadsTheChallengeIdAsGoReadsAUUID() async throws {
    let server = try TestServer()
    let (bearer, factorID, totp) = try await enrolled(server)
    let path = "/factors/\(factorID)/verify"
    let cases: [(String, Int, String, String)] = [
      (
        #"{"challenge_id":"abc","code":"123456"}"#, 400, "bad_json",
        #"Could not parse request body as JSON: uuid: incorrect UUID length 3 in string "abc""#
      ),
      (
        #"{"challenge_id":"zzzzzzzz-0000-0000-0000-000000000000","code":"1"}"#, 400, "bad_json",
        "Could not parse request body as JSON: encoding/hex: invalid byte: U+007A 'z'"
      ),
      (
        #"{"code":"\#(code(totp, server))"}"#, 422, "mfa_factor_not_found",
        "MFA factor with the provided challenge ID not found"
      ),
      (#"{"challenge_id":null}"#, 400, "validation_failed", "Code needs to be non-empty"),
    ]
    for (body, status, code, message) in cases {
      let reply = await server.send(.post, path, json: body, headers: bearer)
      #expect(reply.status == status, "\(body)")
      #expect(reply.errorCode == code, "\(body)")
      #expect(reply.object?["msg"] as? String == message, "\(body)")
    }
    // A challenge id in another of Go's spellings is the same challenge.
    let challenge = await server.send(.post, "/factors/\(factorID)/challenge", headers: bearer)
    let id = try #require(challenge.object?["id"] as? String)
    let braced = "{" + id.uppercased() + "}"
    let body = #"{"challenge_id":"\#(braced)","code":"\#(code(totp, server))"}"#
    #expect(await server.send(.post, path, json: body, headers: bearer).status == 200)
  }

  @Test func otherFactorTypesAndBadRequestsAnswerAsGoTrue() async throws {
    let server = try TestServer()
    let token = try #require(try await server.signIn()["access_token"] as? String)
    let bearer = [("Authorization", "Bearer \(token)")]
    let cases: [(HTTPMethod, String, String?, [(String, String)], Int, String)] = [
      (.post, "/factors", #"{"factor_type":"phone"}"#, bearer, 422, "mfa_phone_enroll_not_enabled"),
      (
        .post, "/factors", #"{"factor_type":"webauthn"}"#, bearer, 422,
        "mfa_webauthn_enroll_not_enabled"
      ),
      (.post, "/factors", #"{"factor_type":"sms"}"#, bearer, 400, "validation_failed"),
      (.post, "/factors", nil, bearer, 400, "bad_json"),
      (.post, "/factors", #"{"factor_type":"totp"}"#, [], 401, "no_authorization"),
      (.post, "/factors/abc/challenge", nil, bearer, 404, "validation_failed"),
      (
        .post, "/factors/00000000-0000-0000-0000-000000000000/verify", "{}", bearer, 404,
        "mfa_factor_not_found"
      ),
      (.delete, "/factors/abc", nil, bearer, 404, "validation_failed"),
    ]
    for (method, path, body, headers, status, code) in cases {
      let reply = await server.send(method, path, json: body, headers: headers)
      #expect(reply.status == status, "\(method) \(path) \(body ?? "")")
      #expect(reply.errorCode == code, "\(method) \(path): \(reply.text)")
    }
    #expect(await server.send(.get, "/factors", headers: bearer).status == 405)
  }

  @Test func adminsListRenameAndDeleteFactors() async throws {
    let server = try TestServer()
    let (bearer, factorID, _) = try await enrolled(server)
    let userID = try #require(
      await server.send(.get, "/user", headers: bearer).object?["id"] as? String)
    let base = "/admin/users/\(userID)/factors"
    let listed = await server.send(.get, base, headers: server.admin)
    let factors = try #require(
      (try JSONSerialization.jsonObject(with: Data(listed.body))) as? [[String: Any]])
    #expect(factors.map { $0["id"] as? String } == [factorID])
    let renamed = await server.send(
      .put, "\(base)/\(factorID)", json: #"{"friendly_name":"Work"}"#, headers: server.admin)
    #expect(renamed.object?["friendly_name"] as? String == "Work")
    let deleted = await server.send(.delete, "\(base)/\(factorID)", headers: server.admin)
    #expect(deleted.object?["id"] as? String == factorID)
    #expect(deleted.object?["factor_type"] as? String == "totp", "the whole factor, as GoTrue")
    #expect(await server.send(.get, base, headers: server.admin).text == "[]")
    let notAdmin = await server.send(.get, base, headers: bearer)
    #expect(notAdmin.status == 403)
    #expect(notAdmin.errorCode == "not_admin")
    let missing = await server.send(
      .put, "\(base)/\(factorID)", json: "not json", headers: server.admin)
    #expect(missing.errorCode == "mfa_factor_not_found", "the factor is found before the body")
  }

  @Test func everyMFAEndpointHasARoute() async throws {
    let server = try TestServer()
    let id = "00000000-0000-0000-0000-000000000000"
    for endpoint in GoTrueEndpoint.mfa {
      let answer = await AuthServerTests.answer(
        of: server.responder, method: endpoint.method, path: endpoint.path(id, id), query: [],
        headers: [], body: [])
      #expect(answer.status != 404 && answer.status != 405, "\(endpoint)")
    }
  }

  @Test func mfaOptionsTakeGoTruesVariables() throws {
    let options = try ServeOptions.parse(
      [],
      environment: [
        "GOTRUE_MFA_TOTP_ENROLL_ENABLED": "false", "GOTRUE_MFA_TOTP_VERIFY_ENABLED": "0",
        "GOTRUE_MFA_MAX_ENROLLED_FACTORS": "3", "GOTRUE_MFA_MAX_VERIFIED_FACTORS": "2",
        "GOTRUE_MFA_CHALLENGE_EXPIRY_DURATION": "600", "GOTRUE_MFA_FACTOR_EXPIRY_DURATION": "1m",
      ])
    let mfa = options.settings.engine.mfa
    #expect(!mfa.totpEnrollEnabled && !mfa.totpVerifyEnabled)
    #expect((mfa.maxEnrolledFactors, mfa.maxVerifiedFactors) == (3, 2))
    #expect(mfa.challengeExpiry == 600)
    #expect(mfa.factorExpiry == 300, "GoTrue raises anything below 300 s to 300 s")
    #expect(
      try ServeOptions.parse(["--mfa-totp-enroll", "TRUE"], environment: [:]).settings.engine.mfa
        .totpEnrollEnabled)
    #expect(throws: (any Error).self) {
      try ServeOptions.parse(["--mfa-totp-verify", "yes"], environment: [:])
    }
    #expect(ServeOptions.usage.contains("MFA:\n  --mfa-totp-enroll true|false"))
  }
}
