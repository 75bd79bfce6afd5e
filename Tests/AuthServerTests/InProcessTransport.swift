import Foundation
import HTTPClient
import Synchronization

@testable import AuthServer

/// Hands a client's requests to a server's responder, as the network would, keeping what was
/// sent: the wire-contract tests walk a real client through the real server with it.
final class InProcessTransport: HTTPTransport {
  let responder: AuthResponder
  /// The URL the client was given, which the responder's paths are below.
  let base: String
  /// Every request sent, in order.
  let sent = Mutex<[HTTPClient.HTTPRequest]>([])

  init(responder: AuthResponder, base: String) {
    self.responder = responder
    self.base = base
  }

  /// The path of `request` below ``base``, without its query.
  func path(of request: HTTPClient.HTTPRequest) -> String {
    String(request.url.replacingOccurrences(of: base, with: "").prefix { $0 != "?" })
  }

  func send(_ request: HTTPClient.HTTPRequest, timeout: Double)
    async throws(TransportFailure) -> HTTPClient.HTTPResponse
  {
    sent.withLock { $0.append(request) }
    let target = request.url.replacingOccurrences(of: base, with: "")
    let parts = target.split(separator: "?", maxSplits: 1)
    let query = (parts.count > 1 ? String(parts[1]) : "").split(separator: "&").map { pair in
      let halves = pair.split(separator: "=", maxSplits: 1)
      return (String(halves[0]), halves.count > 1 ? String(halves[1]) : "")
    }
    let answer = await AuthServerTests.answer(
      of: responder, method: request.method, path: String(parts[0]), query: query,
      headers: request.headers.map { ($0.name, $0.value) },
      body: request.body.map(Array.init) ?? [])
    var headers: [String: String] = [:]
    for header in answer.headers { headers[header.name.lowercased()] = header.value }
    return HTTPClient.HTTPResponse(status: answer.status, headers: headers, body: Data(answer.body))
  }
}
