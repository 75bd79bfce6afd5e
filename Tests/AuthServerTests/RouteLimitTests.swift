import Clocks
import Foundation
import GoTrueEngine
import HTTPServer
import Testing

@testable import AuthServer

/// Which routes spend which of GoTrue's request limits, and where in each route the limit
/// comes (`internal/api/api.go`, `token.go`).
struct RouteLimitTests {
  static let header = "X-Client-IP"
  static let limitReached =
    #"{"code":429,"error_code":"over_request_rate_limit","msg":"Request rate limit reached"}"#

  let limiter: RequestLimiter
  let server: TestServer

  /// A server limiting by ``header``, with the engine's budgets as `authflow serve` has them
  /// (and no hourly email budget, which is not what these tests are about).
  init() throws {
    var limits = RequestLimits()
    limits.header = Self.header
    limiter = RequestLimiter(
      limits, clock: AdjustableClock(fixedAt: Date(timeIntervalSince1970: 0)))
    server = try TestServer(limiter: limiter) {
      $0.rateLimits = ServeOptions().settings.engine.rateLimits
      $0.rateLimits.emailSent = .unlimited
      $0.anonymousSignIns = true
    }
  }

  /// A request of a limited route.
  struct Call {
    var limit: RequestLimit
    var method: HTTPMethod
    var path: String
    var json: String?
    var query: [(String, String)] = []
    var headers: [(String, String)] = []
  }

  /// One call of each limited route (signing the demo user in, unlimited, for the tokens).
  private func calls() async throws -> [Call] {
    let session = try await server.signIn()
    let access = try #require(session["access_token"] as? String)
    let refresh = try #require(session["refresh_token"] as? String)
    let password = #"{"email":"test@example.com","password":"wrong-password"}"#
    let factor = try await server.engine.enrollTOTP(
      accessToken: access, friendlyName: "phone", issuer: "authflow")
    let bearer = [("Authorization", "Bearer \(access)")]
    return [
      Call(limit: .anonymousSignIn, method: .post, path: "/signup", json: "{}"),
      Call(
        limit: .factorChallenge, method: .post, path: "/factors/\(factor.id)/challenge",
        json: "{}", headers: bearer),
      Call(
        limit: .factorVerify, method: .post, path: "/factors/\(factor.id)/verify",
        json: #"{"challenge_id":"00000000-0000-4000-8000-000000000000","code":"123456"}"#,
        headers: bearer),
      Call(
        limit: .signup, method: .post, path: "/signup",
        json: #"{"email":"s@example.com","password":"secret12"}"#),
      Call(limit: .recover, method: .post, path: "/recover", json: #"{"email":"r@example.com"}"#),
      Call(
        limit: .resend, method: .post, path: "/resend",
        json: #"{"type":"signup","email":"unverified@example.com"}"#),
      Call(
        limit: .magicLink, method: .post, path: "/magiclink", json: #"{"email":"m@example.com"}"#),
      Call(limit: .otp, method: .post, path: "/otp", json: #"{"email":"o@example.com"}"#),
      Call(
        limit: .updateUser, method: .put, path: "/user", json: #"{"data":{"a":1}}"#,
        headers: [("Authorization", "Bearer \(access)")]),
      Call(
        limit: .verify, method: .post, path: "/verify", json: #"{"type":"signup","token_hash":"x"}"#
      ),
      Call(
        limit: .verify, method: .get, path: "/verify", query: [("type", "signup"), ("token", "x")]),
      Call(
        limit: .token, method: .post, path: "/token", json: password,
        query: [("grant_type", "password")]),
      Call(
        limit: .token, method: .post, path: "/token", json: #"{"refresh_token":"\#(refresh)"}"#,
        query: [("grant_type", "refresh_token")]),
      Call(
        limit: .token, method: .post, path: "/token",
        json: #"{"auth_code":"a","code_verifier":"b"}"#,
        query: [("grant_type", "pkce")]),
      Call(
        limit: .token, method: .post, path: "/token", json: "{}",
        query: [("grant_type", "id_token")]),
    ]
  }

  private func send(_ call: Call, as key: String?) async -> Reply {
    await server.send(
      call.method, call.path, json: call.json, query: call.query,
      headers: call.headers + (key.map { [(Self.header, $0)] } ?? []))
  }

  private func exhaust(_ limit: RequestLimit, for key: String) {
    for _ in 0..<100 { _ = limiter.spend(limit, key: key) }
  }

  @Test func eachRouteSpendsItsOwnLimitOnly() async throws {
    for (index, call) in try await calls().enumerated() {
      let key = "client-\(index)"
      let reply = await send(call, as: key)
      #expect(reply.errorCode != "over_request_rate_limit", "\(call.path)")
      for limit in RequestLimit.allCases {
        let spent = limiter.remaining(limit, key: key) < limiter.limits.shape(limit).burst
        #expect(spent == (limit == call.limit), "\(call.method) \(call.path) and \(limit)")
      }
    }
  }

  @Test func overItsLimitEachRouteAnswersGoTrues429() async throws {
    for call in try await calls() {
      exhaust(call.limit, for: "spent")
      let refused = await send(call, as: "spent")
      #expect(refused.status == 429, "\(call.method) \(call.path)")
      #expect(refused.text == Self.limitReached, "JSON, even for GET /verify's redirects")
      // (The engine's own limits, such as one email per address a minute, may still answer.)
      let other = await send(call, as: "another")
      #expect(other.errorCode != "over_request_rate_limit", "\(call.path): another client")
      let anonymous = await send(call, as: nil)
      #expect(anonymous.errorCode != "over_request_rate_limit", "\(call.path): no header")
    }
  }

  @Test func limitsComeWhereGoTrueChecksThem() async throws {
    let session = try await server.signIn()
    let access = try #require(session["access_token"] as? String)
    for limit in RequestLimit.allCases { exhaust(limit, for: "spent") }
    let client = [(Self.header, "spent")]
    func code(
      _ method: HTTPMethod, _ path: String, _ json: String, grant: String? = nil,
      bearer: String? = nil
    ) async -> String? {
      await server.send(
        method, path, json: json, query: grant.map { [("grant_type", $0)] } ?? [],
        headers: client + (bearer.map { [("Authorization", "Bearer \($0)")] } ?? [])
      ).errorCode
    }
    // Middleware limits come before the body is read.
    #expect(await code(.post, "/recover", "{") == "over_request_rate_limit")
    #expect(await code(.post, "/verify", "{") == "over_request_rate_limit")
    // /signup reads its body, and refuses anonymous sign-ins while they are off, first.
    #expect(await code(.post, "/signup", "{") == "bad_json")
    #expect(await code(.post, "/signup", "{}") == "over_request_rate_limit")
    let closed = try TestServer(limiter: limiter)
    let anonymous = await closed.send(.post, "/signup", json: "{}", headers: client)
    #expect(anonymous.errorCode == "anonymous_provider_disabled")
    #expect(await code(.post, "/signup", #"{"email":"a@b.co"}"#) == "over_request_rate_limit")
    // The factor routes find the user and the factor first.
    #expect(
      await code(.post, "/factors/\(UUIDText.placeholder)/verify", "{}", bearer: access)
        == "mfa_factor_not_found")
    // /token finds its grant first.
    #expect(await code(.post, "/token", "{}", grant: "nope") == "invalid_credentials")
    #expect(await code(.post, "/token", "{", grant: "password") == "over_request_rate_limit")
    // PUT /user authenticates first.
    #expect(await code(.put, "/user", "{}", bearer: "not-a-token") == "bad_jwt")
    #expect(await code(.put, "/user", "{", bearer: access) == "over_request_rate_limit")
    // GET /user and the admin routes are not limited, and touch no bucket.
    #expect(
      await server.send(.get, "/user", headers: client + [("Authorization", "Bearer \(access)")])
        .status == 200)
    let counts = RequestLimit.allCases.map { limiter.table($0).count }
    #expect(await server.send(.get, "/admin/users", headers: client + server.admin).status == 200)
    #expect(RequestLimit.allCases.map { limiter.table($0).count } == counts)
  }

  @Test func clientsAreTheirPeerAddressesBeyondLoopback() async throws {
    var limits = RequestLimits()
    limits.byPeerAddress = true
    let limiter = RequestLimiter(limits)
    let server = try TestServer(limiter: limiter)
    for _ in 0..<100 { _ = limiter.spend(.recover, key: "192.168.1.20") }
    let body = #"{"email":"r@example.com"}"#
    let same = await server.send(.post, "/recover", json: body, peer: "192.168.1.20:40001")
    #expect(same.text == Self.limitReached, "another port, the same client")
    let other = await server.send(.post, "/recover", json: body, peer: "192.168.1.21:40000")
    #expect(other.status == 200)
  }

  @Test func withoutAHeaderNothingIsCounted() async throws {
    let limiter = RequestLimiter(RequestLimits())
    let server = try TestServer(limiter: limiter)
    for _ in 0..<40 {
      let reply = await server.send(
        .post, "/verify", json: #"{"type":"signup","token_hash":"x"}"#,
        headers: [(Self.header, "a")])
      #expect(reply.errorCode == "otp_expired")
    }
    #expect(RequestLimit.allCases.allSatisfy { limiter.table($0).count == 0 })
  }
}
