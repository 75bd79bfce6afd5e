import AuthCrypto
import Clocks
import Foundation
import GoTrue
import GoTrueEngine
import HTTPClient
import Synchronization
import Testing

@testable import AuthServer

/// A hook's side of the wire: answers in the order scripted, and keeps the requests; a request
/// past the script fails the test.
final class ScriptedHookTransport: HTTPTransport {
  private let script: Mutex<[Result<HTTPClient.HTTPResponse, TransportFailure>]>
  private let sent = Mutex<[HTTPClient.HTTPRequest]>([])

  init(_ script: [Result<HTTPClient.HTTPResponse, TransportFailure>]) {
    self.script = Mutex(script)
  }

  var requests: [HTTPClient.HTTPRequest] { sent.withLock { $0 } }

  func send(_ request: HTTPClient.HTTPRequest, timeout: Double) async throws(TransportFailure)
    -> HTTPClient.HTTPResponse
  {
    sent.withLock { $0.append(request) }
    let next = script.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    guard let next else {
      Issue.record("a request past the script: \(request.url)")
      throw .unavailable("unscripted")
    }
    return try next.get()
  }
}

/// GoTrue's HTTP hooks as `authflow serve` calls them (`hooks/hookshttp`).
struct HookDispatcherTests {
  static let key = Array("a hook key of thirty-two bytes!!".utf8)

  static func dispatcher(_ transport: ScriptedHookTransport) -> HTTPHookDispatcher {
    HTTPHookDispatcher(
      targets: [.customizeAccessToken: .init(uri: "http://127.0.0.1:1/hook", keys: [key])],
      transport: transport,
      clock: AdjustableClock(fixedAt: Date(timeIntervalSince1970: 1_735_689_600)),
      random: SeededRandom(seed: 1), monotonic: { stopped }, backoff: 0)
  }

  /// A monotonic time that stands still: the retries' deadline is the dispatcher's logic, not
  /// how fast a loaded machine runs the test.
  static let stopped = ContinuousClock.now

  static func json(_ status: Int, _ body: String, type: String = "application/json")
    -> Result<HTTPClient.HTTPResponse, TransportFailure>
  {
    .success(.init(status: status, headers: ["content-type": type], body: Data(body.utf8)))
  }

  @Test func theSignatureIsStandardWebhooks() {
    #expect(
      WebhookSignature.sign(
        id: "msg_1", timestamp: 1_735_689_600, body: Array(#"{"a":1}"#.utf8), key: Self.key)
        == "v1,G2O1j49lmGgEuvcuRgoHhIO3C2NU5qURZtFZpSfOlsU=")
  }

  @Test func aCallIsASignedPostOfThePayload() async throws {
    let transport = ScriptedHookTransport([Self.json(200, #"{"claims":{"a":1}}"#)])
    let answer = try await Self.dispatcher(transport).dispatch(
      .customizeAccessToken, payload: ["a": .number(1)])
    #expect(answer == ["claims": .object(["a": .number(1)])])
    let request = try #require(transport.requests.first)
    #expect(request.method == "POST" && request.url == "http://127.0.0.1:1/hook")
    #expect(request.body == Data(#"{"a":1}"#.utf8))
    let headers = Dictionary(uniqueKeysWithValues: request.headers.map { ($0.name, $0.value) })
    let id = try #require(headers["webhook-id"])
    #expect(headers["webhook-timestamp"] == "1735689600")
    #expect(
      headers["webhook-signature"]
        == WebhookSignature.sign(
          id: id, timestamp: 1_735_689_600, body: Array(#"{"a":1}"#.utf8), key: Self.key))
    #expect(headers["Content-Type"] == "application/json")
  }

  @Test(
    arguments: [
      (json(200, #"{"error":{"http_code":429,"message":"slow down"}}"#), 429, nil, "slow down"),
      (json(200, #"{"error":{"message":"no"}}"#), 500, nil, "no"),
      (
        json(200, "{}", type: ""), 400, GoTrueErrorCode.hookPayloadInvalidContentType,
        "Invalid Content-Type: Missing Content-Type header"
      ),
      (
        json(200, "{}", type: "text/html; charset=utf-8"), 400, .hookPayloadInvalidContentType,
        "Invalid JSON response. Received content-type: text/html; charset=utf-8"
      ),
      (json(200, "not json"), 500, nil, "Error unmarshaling JSON output."),
      (json(400, "{}"), 500, nil, "Invalid payload sent to hook"),
      (json(401, "{}"), 500, nil, "Hook requires authorization token"),
      (json(503, "{}"), 500, nil, "Service currently unavailable due to hook"),
      (json(302, ""), 500, nil, "Unexpected status code returned from hook: 302"),
      (
        .failure(.timedOut), 422, .hookTimeout,
        "Failed to reach hook within maximum time of 5.000000 seconds"
      ),
      (
        json(200, String(repeating: " ", count: 200 * 1_024 + 1)), 422, .hookPayloadOverSizeLimit,
        "Payload size exceeded size limit of 204800 bytes"
      ),
    ] as [(Result<HTTPClient.HTTPResponse, TransportFailure>, Int, GoTrueErrorCode?, String)])
  func aFailingHookIsAnsweredAsGoTrueAnswers(
    answer: Result<HTTPClient.HTTPResponse, TransportFailure>, status: Int,
    code: GoTrueErrorCode?, message: String
  ) async {
    let transport = ScriptedHookTransport([answer])
    await #expect(throws: GoTrueAPIError(status: status, code: code, message: message)) {
      try await Self.dispatcher(transport).dispatch(.customizeAccessToken, payload: [:])
    }
  }

  @Test func noContentIsAnEmptyAnswer() async throws {
    let transport = ScriptedHookTransport([.success(.init(status: 204))])
    #expect(
      try await Self.dispatcher(transport).dispatch(.customizeAccessToken, payload: [:]) == [:])
  }

  @Test func anUnreachableHookIsTriedThreeTimes() async {
    let transport = ScriptedHookTransport(
      Array(repeating: .failure(.unreachable("refused")), count: 3))
    await #expect(
      throws: GoTrueAPIError(
        status: 422, code: .hookTimeoutAfterRetry,
        message: "Failed to reach hook after maximum retries")
    ) {
      try await Self.dispatcher(transport).dispatch(.customizeAccessToken, payload: [:])
    }
    #expect(transport.requests.count == 3)
    let ids = Set(
      transport.requests.compactMap { $0.headers.first { $0.name == "webhook-id" }?.value })
    #expect(ids.count == 3, "each attempt is a new message")
  }

  @Test func aBusyHookWithRetryAfterIsAskedAgain() async throws {
    let busy = Result<HTTPClient.HTTPResponse, TransportFailure>.success(
      .init(status: 429, headers: ["retry-after": "1"]))
    let transport = ScriptedHookTransport([busy, Self.json(200, #"{"ok":true}"#)])
    let answer = try await Self.dispatcher(transport).dispatch(.customizeAccessToken, payload: [:])
    #expect(answer == ["ok": .bool(true)])
  }
}

/// The hooks' options and GoTrue's variables for them.
struct HookOptionTests {
  static let secret = "v1,whsec_YSBob29rIGtleSBvZiB0aGlydHktdHdvIGJ5dGVzISE="

  @Test func aURIOnTheCommandLineTurnsTheHookOn() throws {
    let options = try ServeOptions.parse(
      [
        "--hook-custom-access-token", "http://localhost:9000/hook",
        "--hook-custom-access-token-secrets", Self.secret,
      ], environment: [:])
    let targets = try options.hooks.targets()
    #expect(targets[.customizeAccessToken]?.uri == "http://localhost:9000/hook")
    #expect(targets[.customizeAccessToken]?.keys == [HookDispatcherTests.key])
    #expect(targets[.sendEmail] == nil)
  }

  @Test func theVariablesTurnItOnOnlyWithEnabled() throws {
    var environment = [
      "GOTRUE_HOOK_SEND_EMAIL_URI": "https://hooks.example.com/send",
      "GOTRUE_HOOK_SEND_EMAIL_SECRETS": Self.secret + "|" + Self.secret,
    ]
    #expect(try ServeOptions.parse([], environment: environment).hooks.targets().isEmpty)
    environment["GOTRUE_HOOK_SEND_EMAIL_ENABLED"] = "true"
    let targets = try ServeOptions.parse([], environment: environment).hooks.targets()
    #expect(targets[.sendEmail]?.keys.count == 2)
  }

  @Test(arguments: [
    (
      ["--hook-send-email", "http://example.com/hook"],
      "--hook-send-email: only localhost, 127.0.0.1, and ::1 are supported with http; use https"
    ),
    (
      ["--hook-send-email", "ftp://localhost/hook"],
      "--hook-send-email: only postgres hooks and HTTPS functions are supported; give an https URL"
    ),
    (
      ["--hook-send-email", "https://example.com", "--hook-send-email-secrets", "v1,whsec_short"],
      "--hook-send-email-secrets: invalid secret format; each is v1,whsec_ and at least 32 "
        + "base64 characters, separated by |"
    ),
    (
      ["--hook-send-email-enabled", "on"],
      "--hook-send-email is on but has no URI; give --hook-send-email https://…"
    ),
  ])
  func wrongSettingsAreOneLine(arguments: [String], text: String) throws {
    let options = try ServeOptions.parse(arguments, environment: [:])
    #expect(throws: HookSettingsError(text)) { try options.hooks.targets() }
  }
}
