#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The line protocol between authflow and its `authflow-http` helper: one JSON object per line
/// each way, a request answered by the response or failure with the same number.
///
/// NB: the helper exists so that libcurl (and the two dozen shared libraries it loads) stays out
/// of the static `authflow` executable, which would otherwise load them at every start; git
/// keeps its HTTPS transport in a helper for the same reason.
public enum Bridge {
  /// authflow to helper.
  public struct Request: Codable, Equatable, Sendable {
    /// Matches the answer to the request.
    public var id: Int
    /// What to send.
    public var request: HTTPRequest
    /// Seconds to wait.
    public var timeout: Double

    /// A numbered request.
    public init(id: Int, request: HTTPRequest, timeout: Double) {
      self.id = id
      self.request = request
      self.timeout = timeout
    }
  }

  /// Helper to authflow.
  public struct Answer: Codable, Equatable, Sendable {
    /// The request's number.
    public var id: Int
    /// The response, when one came.
    public var response: HTTPResponse?
    /// Why none came.
    public var failure: TransportFailure?

    /// An answer to request `id`.
    public init(id: Int, response: HTTPResponse?, failure: TransportFailure?) {
      self.id = id
      self.response = response
      self.failure = failure
    }
  }

  /// The encoder both sides use: one line per message.
  public static func encode(_ value: some Encodable) -> [UInt8]? {
    guard let data = try? JSONEncoder().encode(value) else { return nil }
    return Array(data) + [UInt8(ascii: "\n")]
  }

  /// Decodes one message line.
  public static func decode<T: Decodable>(_ type: T.Type, from line: [UInt8]) -> T? {
    try? JSONDecoder().decode(type, from: Data(line))
  }
}
