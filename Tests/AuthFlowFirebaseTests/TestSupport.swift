import AuthFlow
import AuthFlowFirebase
import AuthFlowHTTP
import Foundation
import IdentityToolkit
import Synchronization
import Testing

/// The folder of this test target.
let testFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

/// 2026-01-01 00:00:00 UTC, where the tests' clocks start.
let epoch = Date(timeIntervalSince1970: 1_767_225_600)

/// A project on Google's servers.
let testProject = project(key: "AIzaSyD-test_Key.0123456789", id: "clarity-pulse")

/// The same project on a local Auth emulator.
let emulatorProject = project(key: "fake-api-key", id: "demo-project", emulator: "127.0.0.1:9099")

private func project(key: String, id: String, emulator: String? = nil) -> FirebaseProject {
  do {
    return try FirebaseProject(apiKey: key, projectID: id, emulatorHost: emulator)
  } catch {
    fatalError("the test project is valid: \(error)")
  }
}

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

  /// The operation of each request (`accounts:signUp`, `token`), for flow checks.
  var calls: [String] {
    requests.map { request in
      let path = request.url.split(separator: "?").first ?? ""
      return String(path.split(separator: "/").last ?? "")
    }
  }

  /// The JSON body of the request at `index`, as a dictionary.
  func body(_ index: Int) -> [String: Any] {
    let requests = self.requests
    guard requests.indices.contains(index), let body = requests[index].body,
      let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
    else { return [:] }
    return object
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

/// An ID token as the Auth emulator makes one: unsigned (`alg: none`, an empty signature), the
/// claims in its order.
func idToken(
  uid: String = "uid-1", email: String = "test@example.com", verified: Bool = false,
  name: String? = nil, issuedAt: Date = epoch
) -> String {
  let iat = Int(issuedAt.timeIntervalSince1970)
  var claims: [String] = []
  if let name { claims.append(#""name":"\#(name)""#) }
  claims += [
    #""email":"\#(email)""#, #""email_verified":\#(verified)"#, #""auth_time":\#(iat)"#,
    #""user_id":"\#(uid)""#,
    #""firebase":{"identities":{"email":["\#(email)"]},"sign_in_provider":"password"}"#,
    #""iat":\#(iat)"#, #""exp":\#(iat + 3_600)"#, #""aud":"demo-project""#,
    #""iss":"https://securetoken.google.com/demo-project""#, #""sub":"\#(uid)""#,
  ]
  func encoded(_ text: String) -> String {
    Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
  }
  return encoded(#"{"alg":"none","typ":"JWT"}"#) + "."
    + encoded("{\(claims.joined(separator: ","))}")
    + "."
}

/// A `200` with `json`.
func ok(_ json: String) -> ReplayTransport.Reply {
  .response(
    HTTPResponse(status: 200, headers: ["content-type": "application/json"], body: Data(json.utf8)))
}

/// What `accounts:signUp` and `accounts:signInWithPassword` answer.
func signInAnswer(
  token: String = idToken(), refreshToken: String = "refresh-1",
  email: String = "test@example.com", uid: String = "uid-1"
) -> ReplayTransport.Reply {
  ok(
    #"{"kind":"identitytoolkit#VerifyPasswordResponse","registered":true,"localId":"\#(uid)","#
      + #""email":"\#(email)","idToken":"\#(token)","refreshToken":"\#(refreshToken)","#
      + #""expiresIn":"3600"}"#)
}

/// What Secure Token's `token` answers.
func tokenAnswer(token: String, refreshToken: String = "refresh-2", uid: String = "uid-1")
  -> ReplayTransport.Reply
{
  ok(
    #"{"id_token":"\#(token)","access_token":"\#(token)","expires_in":"3600","#
      + #""refresh_token":"\#(refreshToken)","token_type":"Bearer","user_id":"\#(uid)","#
      + #""project_id":"12345"}"#)
}

/// What `accounts:sendOobCode` answers.
func oobAnswer(_ email: String = "test@example.com") -> ReplayTransport.Reply {
  ok(#"{"kind":"identitytoolkit#GetOobConfirmationCodeResponse","email":"\#(email)"}"#)
}

/// Google's error body for `message` (`CODE` or `CODE : detail`), as the emulator writes it.
func googleError(_ message: String, status: Int = 400) -> ReplayTransport.Reply {
  let error = IdentityToolkitError(status: status, message: message)
  return .response(
    HTTPResponse(
      status: status, headers: ["content-type": "application/json; charset=utf-8"],
      body: Data(IdentityToolkitErrorBody.emulatorBytes(error))))
}

/// The error `body` throws, if it throws one; another kind of error fails the test.
func authError<T>(_ body: () async throws -> T) async -> AuthError? {
  do {
    _ = try await body()
    return nil
  } catch let error as AuthError {
    return error
  } catch {
    Issue.record("expected an AuthError, got \(error)")
    return nil
  }
}
