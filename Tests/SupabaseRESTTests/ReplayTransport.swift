import AuthFlow
import AuthFlowGoTrue
import Foundation
import GoTrue
import HTTPClient
import SupabaseREST
import TestSupport
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

extension ReplayTransport {
  /// A transport for the test project, answering `replies` in order.
  convenience init(_ replies: Reply...) {
    self.init(expecting: testProject.timeout, replies)
  }

  /// `METHOD path?query` of each request, below the project's auth URL, for flow checks.
  var calls: [String] { calls(under: testProject.authURL) }
}
