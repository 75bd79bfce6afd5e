import Clocks
import GoTrue
import HTTPClient

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The clock of `authflow serve` behind a Supabase project URL (`POST /authflow/v1/clock`),
/// which the shell's `clock advance` moves: a real Supabase project has no such route.
public struct ServeClock: Sendable {
  /// The route's URL: `<project URL>/authflow/v1/clock`.
  public let url: String
  private let key: String
  private let timeout: Double
  private let transport: any HTTPTransport

  /// The clock of the server at `project`'s URL, reached through `transport`.
  public init(project: SupabaseProject, transport: any HTTPTransport) {
    url = project.url + "/authflow/v1/clock"
    key = project.key
    timeout = project.timeout
    self.transport = transport
  }

  /// Moves the server's clock forward by `seconds`; its reading after the move, or one line
  /// saying why it did not move.
  public func advance(by seconds: Double) async throws(ServeClockFailure) -> ClockReading {
    let move = ClockMove(advance: ClockDuration.text(seconds))
    let body = (try? JSONEncoder().encode(move)) ?? Data()
    // The key, as every request to a project carries it: a Supabase gateway answers a request
    // without one 401, and with one a path it does not route 404.
    let request = HTTPRequest(
      method: "POST", url: url,
      headers: [
        HTTPRequest.Header("apikey", key), HTTPRequest.Header("Content-Type", "application/json"),
        HTTPRequest.Header("Accept", "application/json"),
      ], body: body)
    let response: HTTPResponse
    do {
      response = try await transport.exchange(request, timeout: timeout)
    } catch {
      throw ServeClockFailure(reason(error))
    }
    guard let reading = try? JSONDecoder().decode(ClockReading.self, from: response.body) else {
      throw ServeClockFailure("\(url) answered something other than a clock reading")
    }
    return reading
  }

  private func reason(_ failure: ExchangeFailure) -> String {
    switch failure {
    case .noAnswer(let reason), .tooLarge(let reason): return reason
    case .refused(let response) where response.status == 404:
      return "the server has no clock to move: only authflow serve answers /authflow/v1/clock "
        + "(a Supabase project does not)"
    case .refused(let response):
      return "the server refused (\(response.status)): \(Self.said(response))"
    }
  }

  /// What a refusal's body says: GoTrue's JSON message, or the first line of plain text.
  private static func said(_ response: HTTPResponse) -> String {
    if let object = try? JSONDecoder().decode([String: JSONValue].self, from: response.body),
      let message = (object["msg"] ?? object["message"])?.stringValue
    {
      return String(message.prefix(300))
    }
    let text = String(decoding: response.body, as: UTF8.self)
    let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
    return line.isEmpty ? "no reason given" : String(line.prefix(300))
  }
}

/// Why `authflow serve`'s clock did not move.
public struct ServeClockFailure: Error, Equatable, Sendable, CustomStringConvertible {
  /// One line saying why.
  public var description: String

  init(_ description: String) {
    self.description = description
  }
}
