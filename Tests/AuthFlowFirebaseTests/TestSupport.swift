import AuthFlow
import AuthFlowFirebase
import Foundation
import HTTPClient
import IdentityToolkit
import TestSupport
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

extension ReplayTransport {
  /// A transport for the test project, answering `replies` in order.
  convenience init(_ replies: Reply...) {
    self.init(expecting: testProject.timeout, replies)
  }

  /// The operation of each request (`accounts:signUp`, `token`), for flow checks.
  var calls: [String] { operations }
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
