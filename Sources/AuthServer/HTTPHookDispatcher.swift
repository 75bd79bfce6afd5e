import AuthCrypto
import Clocks
import GoTrue
import GoTrueEngine
import HTTPClient

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Calls GoTrue's HTTP hooks as GoTrue does (`hooks/hookshttp`): a signed POST of the payload,
/// retried on a failed connection and on 429 or 503 with `retry-after`, all within one timeout,
/// with GoTrue's answers when the hook fails.
struct HTTPHookDispatcher: AuthHookDispatcher {
  /// A hook that is on: where it is and its signing keys.
  struct Target: Sendable {
    var uri: String
    var keys: [[UInt8]]
  }

  /// The hooks that are on.
  var targets: [AuthHook: Target]
  /// What sends the requests (the `authflow-http` helper in `authflow serve`).
  var transport: any HTTPTransport
  /// Stamps `webhook-timestamp`; receivers check it against their clock.
  var clock: any AuthClock = SystemClock()
  /// Makes each attempt's `webhook-id`.
  var random: any RandomSource = SystemRandom()
  /// How long all attempts of one call may take, in seconds (GoTrue's 5).
  var timeout = 5.0
  /// Where that time is read (a monotonic clock; tests stop it).
  var monotonic: @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
  /// How many attempts (GoTrue's 3).
  var attempts = 3
  /// The wait after a connection failed, in seconds (GoTrue's 2).
  var backoff = 2.0
  /// The largest answer read, in bytes (GoTrue's 200 KB).
  var responseLimit = 200 * 1_024
  /// Where a failure no answer tells of is told: a line of the server's log.
  var log: @Sendable (String) -> Void = { _ in }

  /// Calls `targets` through the `authflow-http` helper beside this program, as the shell's
  /// Supabase backend does: the static executable has no HTTP client of its own.
  static func throughHelper(
    _ targets: [AuthHook: Target], log: @escaping @Sendable (String) -> Void
  )
    -> HTTPHookDispatcher
  {
    HTTPHookDispatcher(
      targets: targets, transport: HelperProcessTransport.besideThisProgram(), log: log)
  }

  func isEnabled(_ hook: AuthHook) -> Bool { targets[hook] != nil }

  /// Logs the failure, in GoTrue's words, without the payload (it carries codes).
  func report(_ failure: GoTrueAPIError, of hook: AuthHook) {
    log(
      "the \(hook.rawValue) hook failed (\(failure.status)\(failure.code.map { " \($0.rawValue)" } ?? ""): "
        + "\(failure.message)); that email was not sent, and the request that asked for it was "
        + "answered as if it had been, so the answer tells no one who has an account")
  }

  func dispatch(_ hook: AuthHook, payload: [String: JSONValue]) async throws(GoTrueAPIError)
    -> [String: JSONValue]
  {
    guard let target = targets[hook] else { return [:] }
    let body = JSONValue.object(payload).jsonBytes
    let deadline = monotonic() + .milliseconds(Int(timeout * 1_000))
    for attempt in 0..<attempts {
      let left = Self.seconds(deadline - monotonic())
      guard left > 0 else { throw timedOut }
      let response: HTTPResponse
      do {
        response = try await transport.send(request(target, body: body), timeout: left)
      } catch {
        switch error {
        case .timedOut, .cancelled: throw timedOut
        case .tooLarge: throw overSizeLimit
        case .unreachable, .unavailable:
          guard attempt < attempts - 1 else {
            throw GoTrueAPIError(
              status: 422, code: .hookTimeoutAfterRetry,
              message: "Failed to reach hook after maximum retries")
          }
          guard monotonic() + .milliseconds(Int(backoff * 1_000)) < deadline else {
            throw timedOut
          }
          try? await Task.sleep(for: .milliseconds(Int(backoff * 1_000)))
          continue
        }
      }
      switch response.status {
      case 204: return [:]
      case 200, 202: return try read(response)
      case 429, 503:
        if let retryAfter = response.headers["retry-after"], !retryAfter.isEmpty { continue }
        throw Self.failure("Service currently unavailable due to hook")
      case 400: throw Self.failure("Invalid payload sent to hook")
      case 401: throw Self.failure("Hook requires authorization token")
      default: throw Self.failure("Unexpected status code returned from hook: \(response.status)")
      }
    }
    throw Self.failure("Service currently unavailable due to hook")
  }

  /// One attempt's request: a fresh message id, the time, and a signature per key.
  private func request(_ target: Target, body: [UInt8]) -> HTTPRequest {
    let id = random.uuidString()
    let timestamp = Int(clock.now.timeIntervalSince1970)
    let signatures = target.keys.map {
      WebhookSignature.sign(id: id, timestamp: timestamp, body: body, key: $0)
    }
    return HTTPRequest(
      method: "POST", url: target.uri,
      headers: [
        .init("Content-Type", "application/json"), .init("webhook-id", id),
        .init("webhook-timestamp", "\(timestamp)"),
        .init("webhook-signature", signatures.joined(separator: ", ")),
        .init("Accept-Encoding", "identity"),
      ], body: Data(body))
  }

  /// A 200 or 202 answer's object, after GoTrue's checks of its type, size and `error`.
  private func read(_ response: HTTPResponse) throws(GoTrueAPIError) -> [String: JSONValue] {
    guard let contentType = response.headers["content-type"], !contentType.isEmpty else {
      throw GoTrueAPIError(
        status: 400, code: .hookPayloadInvalidContentType,
        message: "Invalid Content-Type: Missing Content-Type header")
    }
    let mediaType = String(
      contentType.prefix { $0 != ";" }.drop { $0 == " " || $0 == "\t" }.reversed()
        .drop { $0 == " " || $0 == "\t" }.reversed()
    ).lowercased()
    guard !mediaType.isEmpty, mediaType.contains("/") else {
      throw GoTrueAPIError(
        status: 400, code: .hookPayloadInvalidContentType,
        message: "Invalid Content-Type header: mime: "
          + (mediaType.isEmpty ? "no media type" : "expected slash after first token"))
    }
    guard mediaType == "application/json" else {
      throw GoTrueAPIError(
        status: 400, code: .hookPayloadInvalidContentType,
        message: "Invalid JSON response. Received content-type: \(contentType)")
    }
    guard response.body.count <= responseLimit else { throw overSizeLimit }
    let value = try? JSONDecoder().decode(JSONValue.self, from: response.body)
    if let refusal = Self.refusal(in: value) { throw refusal }
    guard case .object(let object)? = value else {
      throw Self.failure("Error unmarshaling JSON output.")
    }
    return object
  }

  /// The error a hook answered (`hookserrors.Check`): an `error` object with a message, its
  /// `http_code` the status (500 when absent).
  static func refusal(in answer: JSONValue?) -> GoTrueAPIError? {
    guard case .object(let object)? = answer, case .object(let error)? = object["error"],
      let message = error["message"]?.stringValue, !message.isEmpty
    else { return nil }
    var status = 500
    if let code = error["http_code"]?.numberValue, code == code.rounded(),
      (400..<600).contains(code)
    {
      status = Int(code)
    }
    return GoTrueAPIError(status: status, code: nil, message: message)
  }

  private var timedOut: GoTrueAPIError {
    GoTrueAPIError(
      status: 422, code: .hookTimeout,
      message: "Failed to reach hook within maximum time of \(Self.goFloat(timeout)) seconds")
  }

  private var overSizeLimit: GoTrueAPIError {
    GoTrueAPIError(
      status: 422, code: .hookPayloadOverSizeLimit,
      message: "Payload size exceeded size limit of \(responseLimit) bytes")
  }

  private static func failure(_ message: String) -> GoTrueAPIError {
    GoTrueAPIError(status: 500, code: nil, message: message)
  }

  /// `value` as Go's `%f` writes it: six decimals.
  static func goFloat(_ value: Double) -> String {
    let micros = Int((value * 1_000_000).rounded())
    let fraction = String(micros % 1_000_000)
    return "\(micros / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
  }

  private static func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
