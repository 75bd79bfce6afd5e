import AuthCrypto
import Clocks
import FirebaseEmulator
import Foundation
import GoTrue
import GoTrueEngine
import HTTPServer
import IdentityToolkit
import Testing

@testable import AuthServer

/// A server's responder with the Firebase surface for `demo-app`, on a throw-away engine.
struct FirebaseTestServer {
  let engine: EmbeddedGoTrue
  let emulation: FirebaseEmulation
  let responder: AuthResponder
  let clock: AdjustableClock

  static let v1 = "/identitytoolkit.googleapis.com/v1"
  static let admin = "/identitytoolkit.googleapis.com/v1/projects/demo-app"
  static let emulator = "/emulator/v1/projects/demo-app"

  init(configure: (inout EngineConfiguration) -> Void = { _ in }) throws {
    var configuration = EngineConfiguration()
    configuration.hashCost = Bcrypt.minimumCost
    configuration.emailLinks = .server(externalURL: "http://127.0.0.1:9099")
    configure(&configuration)
    clock = AdjustableClock(fixedAt: Date(timeIntervalSince1970: 1_735_689_600))
    engine = try EmbeddedGoTrue(
      location: .memory, configuration: configuration, clock: clock, random: SeededRandom(seed: 1))
    emulation = FirebaseEmulation(
      engine: engine, projectID: "demo-app", linkBase: "http://127.0.0.1:9099")
    responder = AuthResponder(
      engine: engine, version: "test", firebase: emulation, clock: ServerClock(movable: clock))
  }

  /// One request as the HTTP server would hand it over.
  func send(
    _ method: HTTPMethod, _ path: String, body: String? = nil, query: [(String, String)] = [],
    headers: [(String, String)] = [], peer: String = "127.0.0.1:50000"
  ) async -> Reply {
    var allHeaders = headers.map { (name: $0.0, value: $0.1) }
    if body != nil { allHeaders.append((name: "Content-Type", value: "application/json")) }
    let request = HTTPRequest(
      method: method, path: path, query: query.map { (name: $0.0, value: $0.1) },
      headers: allHeaders, body: Array((body ?? "").utf8), peer: peer)
    return Reply(await responder.answer(request))
  }

  /// A public call with an API key (`?key=`).
  func call(_ operation: String, _ body: String) async -> Reply {
    await send(.post, "\(Self.v1)/accounts:\(operation)", body: body, query: [("key", "k")])
  }

  /// A privileged call (`Authorization: Bearer owner`) under the project's path.
  func admin(_ operation: String, _ body: String) async -> Reply {
    await send(
      .post, "\(Self.admin)/\(operation)", body: body, headers: [("Authorization", "Bearer owner")])
  }

  /// Signs up `email` with `secret123`; the answer's JSON.
  func signUp(_ email: String) async throws -> [String: Any] {
    let reply = await call("signUp", #"{"email":"\#(email)","password":"secret123"}"#)
    #expect(reply.status == 200, "\(reply.text)")
    return try #require(reply.object)
  }

  /// The codes `/emulator/v1/projects/demo-app/oobCodes` lists.
  func oobCodes() async throws -> [[String: String]] {
    let reply = await send(.get, "\(Self.emulator)/oobCodes")
    #expect(reply.status == 200)
    return try #require(reply.object?["oobCodes"] as? [[String: String]])
  }
}

extension Reply {
  /// The `error.message` of a Google error body.
  var googleMessage: String? {
    (object?["error"] as? [String: Any])?["message"] as? String
  }

  /// The emulator's exact error body for a plain `400` with `message`.
  static func badRequestBody(_ message: String) -> String {
    """
    {
      "error": {
        "code": 400,
        "message": "\(message)",
        "errors": [
          {
            "message": "\(message)",
            "reason": "invalid",
            "domain": "global"
          }
        ]
      }
    }
    """
  }
}
