import AuthFlow
import AuthFlowGoTrue
import AuthFlowHTTP
import AuthFlowSupabase
import Foundation
import GoTrue
import Synchronization
import Testing

/// The folder of this test target.
let testFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

/// The bytes of a fixture in Fixtures/.
func fixture(_ name: String) -> Data {
  (try? Data(contentsOf: testFolder.appendingPathComponent("Fixtures/\(name)"))) ?? Data()
}

/// A response with a fixture body.
func reply(_ status: Int, _ name: String? = nil, headers: [String: String] = [:])
  -> ReplayTransport.Reply
{
  .response(HTTPResponse(status: status, headers: headers, body: name.map(fixture) ?? Data()))
}

let testProject: SupabaseProject = {
  do {
    return try SupabaseProject(
      url: "https://abcdefghijklmnop.supabase.co/",
      key: "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJyb2xlIjoiYW5vbiJ9.anon-key-signature")
  } catch {
    fatalError("the test project is valid: \(error)")
  }
}()

/// A transport that answers from a script, in order, and records what it was sent. An
/// unscripted request fails the test.
final class ReplayTransport: HTTPTransport {
  enum Reply {
    case response(HTTPResponse)
    case failure(TransportFailure)
  }

  private let state = Mutex<(requests: [HTTPRequest], replies: [Reply])>(([], []))

  init(_ replies: Reply...) {
    state.withLock { $0.replies = replies }
  }

  func then(_ replies: Reply...) { state.withLock { $0.replies += replies } }

  var requests: [HTTPRequest] { state.withLock { $0.requests } }

  /// `METHOD path?query` of each request, for flow checks.
  var calls: [String] {
    requests.map { request in
      "\(request.method) \(request.url.replacingOccurrences(of: testProject.authURL, with: ""))"
    }
  }

  func send(_ request: HTTPRequest, timeout: Double) async throws(TransportFailure) -> HTTPResponse
  {
    #expect(timeout == testProject.timeout)
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
  var snapshot: String {
    var lines = ["\(method) \(url)"]
    lines += headers.map { "\($0.name): \($0.value)" }
    if let body { lines += ["", String(decoding: body, as: UTF8.self)] }
    return lines.joined(separator: "\n") + "\n"
  }
}
