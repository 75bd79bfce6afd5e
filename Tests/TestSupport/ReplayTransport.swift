import Foundation
import HTTPClient
import Synchronization
import Testing

/// A transport that answers from a script, in order, and records what it was sent. An
/// unscripted request, or one sent with another timeout than the project's, fails the test.
package final class ReplayTransport: HTTPTransport {
  /// One scripted answer.
  package enum Reply {
    case response(HTTPResponse)
    case failure(TransportFailure)
  }

  private let timeout: Double
  private let state = Mutex<(requests: [HTTPRequest], replies: [Reply])>(([], []))

  /// A transport for requests sent with `timeout`, answering `replies` in order.
  package init(expecting timeout: Double, _ replies: [Reply]) {
    self.timeout = timeout
    state.withLock { $0.replies = replies }
  }

  /// Adds `replies` to the script.
  package func then(_ replies: Reply...) { state.withLock { $0.replies += replies } }

  /// What was sent, in order.
  package var requests: [HTTPRequest] { state.withLock { $0.requests } }

  /// `METHOD path?query` of each request, the URL's `base` left out.
  package func calls(under base: String) -> [String] {
    requests.map { "\($0.method) \($0.url.replacingOccurrences(of: base, with: ""))" }
  }

  /// The last part of each request's path, its query left out (`accounts:signUp`, `token`).
  package var operations: [String] {
    requests.map { request in
      let path = request.url.split(separator: "?").first ?? ""
      return String(path.split(separator: "/").last ?? "")
    }
  }

  /// The JSON body of the request at `index`, as a dictionary.
  package func body(_ index: Int) -> [String: Any] {
    let requests = self.requests
    guard requests.indices.contains(index), let body = requests[index].body,
      let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
    else { return [:] }
    return object
  }

  package func send(_ request: HTTPRequest, timeout: Double) async throws(TransportFailure)
    -> HTTPResponse
  {
    #expect(timeout == self.timeout)
    let reply = state.withLock { state -> Reply? in
      state.requests.append(request)
      return state.replies.isEmpty ? nil : state.replies.removeFirst()
    }
    switch reply {
    case .response(let response)?: return response
    case .failure(let failure)?: throw failure
    case nil:
      Issue.record("unscripted request \(request.method) \(request.url)")
      throw .unavailable("unscripted")
    }
  }
}

extension HTTPRequest {
  /// The request as text: method and URL, headers in order, then the body.
  package var snapshot: String {
    var lines = ["\(method) \(url)"]
    lines += headers.map { "\($0.name): \($0.value)" }
    if let body { lines += ["", String(decoding: body, as: UTF8.self)] }
    return lines.joined(separator: "\n") + "\n"
  }
}

/// Checks `request` against the checked-in text `folder/name.txt`; with `UPDATE_SNAPSHOTS` set
/// in the environment, writes it there first.
package func expectSnapshot(
  of request: HTTPRequest, named name: String, in folder: URL,
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let file = folder.appendingPathComponent("\(name).txt")
  if ProcessInfo.processInfo.environment["UPDATE_SNAPSHOTS"] != nil {
    try request.snapshot.write(to: file, atomically: true, encoding: .utf8)
  }
  let expected = (try? String(contentsOf: file, encoding: .utf8)) ?? "(no snapshot)"
  #expect(request.snapshot == expected, "\(name)", sourceLocation: sourceLocation)
}
