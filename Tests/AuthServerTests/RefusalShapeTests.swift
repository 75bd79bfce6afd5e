import Foundation
import HTTPServer
import Testing

@testable import AuthServer

/// What the HTTP server refuses itself is worded by the surface the request was for: a Firebase
/// route refused at the connection limit answers in Google's shape, a GoTrue one in GoTrue's.
struct RefusalShapeTests {
  @Test func aFirebaseRouteIsRefusedInGooglesShape() throws {
    let server = try FirebaseTestServer()
    let response = server.responder.refusal(
      .overConnectionLimit, path: "/identitytoolkit.googleapis.com/v1/accounts:signUp")
    #expect(response.status == 503)
    let body = try #require(
      try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    let error = try #require(body["error"] as? [String: Any])
    #expect(error["code"] as? Int == 503)
    #expect(error["status"] as? String == "UNAVAILABLE")
    #expect(error["message"] as? String == "Too many connections, please try again later")
  }

  @Test func aGoTrueRouteIsRefusedInGoTruesShape() throws {
    let server = try FirebaseTestServer()
    for path in ["/auth/v1/signup", nil] {
      let response = server.responder.refusal(
        ServerRefusal(.tooLarge, status: 413, reason: "body over 1048576 bytes"), path: path)
      #expect(response.status == 413)
      let body = try #require(
        try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
      #expect(body["error_code"] as? String == "request_too_large")
      #expect(body["msg"] as? String == "body over 1048576 bytes")
    }
  }
}
