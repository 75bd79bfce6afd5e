import AuthCrypto
import Clocks
import Foundation
import GoTrue
import GoTrueEngine
import HTTPServer
import Synchronization
import Testing

@testable import AuthServer

/// A server's responder on a throw-away engine, driven with request values (no sockets).
struct TestServer {
  let engine: EmbeddedGoTrue
  let responder: AuthResponder
  let clock: AdjustableClock

  /// A server whose clock the clock route may move (unless `movableClock` is off), telling
  /// `clockLog` when it does; with `limitsFollowingClock`, a limiter whose windows follow it.
  /// SAML metadata is fetched by `metadataFetcher`, by default one that fails the test: tests
  /// never reach the network.
  init(
    externalURL: String? = nil, limiter: RequestLimiter = RequestLimiter(RequestLimits()),
    limitsFollowingClock: RequestLimits? = nil, movableClock: Bool = true,
    clockLog: ClockLog? = nil,
    metadataFetcher: SAMLMetadataFetcher = SAMLMetadataFetcher(
      transport: ScriptedHookTransport([])),
    configure: (inout EngineConfiguration) -> Void = { _ in }
  ) throws {
    var configuration = EngineConfiguration()
    configuration.hashCost = Bcrypt.minimumCost
    configuration.emailLinks = .server(externalURL: "http://127.0.0.1:9999")
    configure(&configuration)
    let clock = AdjustableClock(fixedAt: Date(timeIntervalSince1970: 1_735_689_600))
    self.clock = clock
    engine = try EmbeddedGoTrue(
      location: .memory, configuration: configuration, clock: clock, random: SeededRandom(seed: 1))
    responder = AuthResponder(
      engine: engine, version: "test", externalURL: externalURL,
      limiter: limitsFollowingClock.map {
        RequestLimiter($0, clock: MonotonicClock(following: clock))
      } ?? limiter,
      clock: ServerClock(
        movable: movableClock ? clock : nil, announce: { line in clockLog?.append(line) }),
      metadataFetcher: metadataFetcher)
  }

  /// The answer to one request, as the HTTP server would get it: from the event loop when the
  /// responder answers there, else from its async path.
  func send(
    _ method: HTTPMethod, _ path: String, json: String? = nil, query: [(String, String)] = [],
    headers: [(String, String)] = [], peer: String = "127.0.0.1:50000"
  ) async -> Reply {
    var allHeaders = headers.map { (name: $0.0, value: $0.1) }
    if json != nil { allHeaders.append((name: "Content-Type", value: "application/json")) }
    let request = HTTPRequest(
      method: method, path: path, query: query.map { (name: $0.0, value: $0.1) },
      headers: allHeaders, body: Array((json ?? "").utf8), peer: peer)
    return Reply(await responder.answer(request))
  }

  /// The bearer header of the service-role key.
  var admin: [(String, String)] {
    [("Authorization", "Bearer " + engine.apiKey(role: "service_role"))]
  }

  /// Signs the demo user in and returns its session's JSON.
  func signIn() async throws -> [String: Any] {
    let reply = await send(
      .post, "/token", json: #"{"email":"test@example.com","password":"TestPassword123!"}"#,
      query: [("grant_type", "password")])
    #expect(reply.status == 200)
    return try #require(reply.object)
  }
}

/// The lines a server's log got about its clock.
final class ClockLog: Sendable {
  private let storage = Mutex<[String]>([])

  func append(_ line: String) { storage.withLock { $0.append(line) } }

  var lines: [String] { storage.withLock { $0 } }
}

extension HTTPResponder {
  /// The answer to `request`, as the HTTP server would get it: from the routing on the event
  /// loop, or from the work it hands back.
  func answer(_ request: HTTPRequest) async -> HTTPResponse {
    switch route(request) {
    case .answer(let response): response
    case .work(let work): await work()
    }
  }

  /// The answer the routing gives at once, `nil` when it hands back work.
  func immediateAnswer(_ request: HTTPRequest) -> HTTPResponse? {
    if case .answer(let response) = route(request) { response } else { nil }
  }
}

/// The answer of `responder` to a request made of these parts (for tests whose own imports make
/// `HTTPRequest` ambiguous).
func answer(
  of responder: AuthResponder, method: String, path: String, query: [(String, String)],
  headers: [(String, String)], body: [UInt8]
) async -> Reply {
  let request = HTTPRequest(
    method: HTTPMethod(rawValue: method) ?? .get, path: path,
    query: query.map { (name: $0.0, value: $0.1) },
    headers: headers.map { (name: $0.0, value: $0.1) },
    body: body, peer: "127.0.0.1:1")
  return Reply(await responder.answer(request))
}

/// An answer, with its body read as JSON where it is JSON.
struct Reply {
  let status: Int
  let headers: [(name: String, value: String)]
  let body: [UInt8]

  init(_ response: HTTPResponse) {
    status = response.status
    headers = response.headers
    body = response.body
  }

  func header(_ name: String) -> String? {
    headers.first { $0.name.lowercased() == name.lowercased() }?.value
  }

  var text: String { String(decoding: body, as: UTF8.self) }

  var object: [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
  }

  /// The error code, in whichever shape the body has it.
  var errorCode: String? {
    guard let object else { return nil }
    return object["error_code"] as? String ?? object["code"] as? String
  }
}

/// Checks that `authflow serve` refuses `arguments` (with `environment`) saying `text`.
func expectRefusal(
  _ arguments: [String], _ environment: [String: String], says text: String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  do {
    _ = try ServeOptions.parse(arguments, environment: environment)
    Issue.record("\(arguments) should fail", sourceLocation: sourceLocation)
  } catch {
    #expect(
      error.text(program: "authflow serve") == text, "\(arguments)", sourceLocation: sourceLocation)
  }
}
