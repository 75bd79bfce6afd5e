#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// An HTTP request, as plain values so it can be compared, recorded and sent across a pipe.
public struct HTTPRequest: Equatable, Hashable, Sendable, Codable {
  /// `GET`, `POST`, `PUT`…
  public var method: String
  /// The full URL, query included.
  public var url: String
  /// Header fields in the order they are sent.
  public var headers: [Header]
  /// The body, if any.
  public var body: Data?

  /// One header field.
  public struct Header: Equatable, Hashable, Sendable, Codable {
    /// The field name.
    public var name: String
    /// The field value.
    public var value: String

    /// A header field.
    public init(_ name: String, _ value: String) {
      self.name = name
      self.value = value
    }
  }

  /// A request with the given parts.
  public init(method: String, url: String, headers: [Header], body: Data?) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
  }
}

/// An HTTP response.
public struct HTTPResponse: Equatable, Hashable, Sendable, Codable {
  /// The largest body accepted, 1 MiB: an Auth API answers in a few kilobytes, and a body past
  /// this is a misbehaving server, not an answer.
  public static let maximumBodySize = 1 << 20

  /// The status code.
  public var status: Int
  /// Header fields, names in lowercase.
  public var headers: [String: String]
  /// The body, possibly empty.
  public var body: Data

  /// A response with the given parts.
  public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
    self.status = status
    self.headers = headers
    self.body = body
  }
}

/// Why no response came.
public enum TransportFailure: Error, Equatable, Hashable, Sendable, Codable {
  /// Nothing answered in time.
  case timedOut
  /// The host could not be reached: refused, unknown name, no route, TLS failure…
  case unreachable(String)
  /// The request was cancelled.
  case cancelled
  /// The answer's body is larger than the limit, in bytes.
  case tooLarge(limit: Int)
  /// The transport itself is broken (for example, its helper process is missing).
  case unavailable(String)

  /// One line for developers.
  public var description: String {
    switch self {
    case .timedOut: "the request timed out"
    case .unreachable(let reason): "the server could not be reached: \(reason)"
    case .cancelled: "the request was cancelled"
    case .tooLarge(let limit): "the answer was larger than \(limit / 1_024) KiB"
    case .unavailable(let reason): "the HTTP transport is unavailable: \(reason)"
    }
  }
}

/// Something that sends HTTP requests; injected, so tests replay recorded responses.
public protocol HTTPTransport: Sendable {
  /// Sends `request`, giving up after `timeout` seconds.
  func send(_ request: HTTPRequest, timeout: Double) async throws(TransportFailure) -> HTTPResponse
}

/// Why an exchange with an auth backend brought no successful answer.
public enum ExchangeFailure: Error, Equatable, Sendable {
  /// No answer came, or it redirected (never followed: a redirect would take the key and the
  /// tokens elsewhere, and could downgrade to http). The text is for developers.
  case noAnswer(String)
  /// The answer was too large to read.
  case tooLarge(String)
  /// The server answered with an error status; the response is its body.
  case refused(HTTPResponse)
}

extension HTTPTransport {
  /// Sends `request` as both backends' clients do: redirects are answers, never followed, and
  /// only a 2xx status is a success.
  public func exchange(_ request: HTTPRequest, timeout: Double) async throws(ExchangeFailure)
    -> HTTPResponse
  {
    let response: HTTPResponse
    do {
      response = try await send(request, timeout: timeout)
    } catch {
      if case .tooLarge = error { throw .tooLarge(error.description) }
      throw .noAnswer(error.description)
    }
    if (300..<400).contains(response.status) {
      let target = response.headers["location"] ?? "elsewhere"
      throw .noAnswer("the server redirected to \(target); authflow does not follow redirects")
    }
    guard (200..<300).contains(response.status) else { throw .refused(response) }
    return response
  }
}
