import Foundation
import IdentityToolkit
import Testing

/// Google's error bodies, read and written.
struct ErrorBodyTests {
  @Test func readsTheCodeAndItsDetail() {
    let body = Data(
      #"{"error":{"code":400,"message":"WEAK_PASSWORD : Password should be at least 6 characters","errors":[{"message":"x","reason":"invalid","domain":"global"}]}}"#
        .utf8)
    let error = IdentityToolkitErrorBody.decode(status: 400, body: body)
    #expect(error.code == .weakPassword)
    #expect(error.detail == "Password should be at least 6 characters")
    #expect(error.message == "WEAK_PASSWORD : Password should be at least 6 characters")
    #expect(
      IdentityToolkitErrorBody.decode(status: 502, body: Data("<html>".utf8)).code == "UNKNOWN")
  }

  @Test func writesTheEmulatorsShapeAndReadsItBack() throws {
    let error = IdentityToolkitError(code: .emailExists)
    let bytes = IdentityToolkitErrorBody.encode(error)
    #expect(
      String(decoding: bytes, as: UTF8.self)
        == #"{"error":{"code":400,"errors":[{"domain":"global","message":"EMAIL_EXISTS","reason":"invalid"}],"message":"EMAIL_EXISTS"}}"#
    )
    #expect(IdentityToolkitErrorBody.decode(status: 400, body: Data(bytes)) == error)
  }

  @Test func readsAnIDTokensClaimsWithoutItsSignature() throws {
    let payload =
      #"{"email":"a@b.co","email_verified":true,"sub":"u1","iat":1,"exp":3601,"user_id":"u1"}"#
    let encoded = Data(payload.utf8).base64EncodedString().replacing("=", with: "")
      .replacing("+", with: "-").replacing("/", with: "_")
    let claims = try #require(FirebaseIDTokenClaims(token: "eyJhbGciOiJub25lIn0.\(encoded)."))
    #expect(claims.emailVerified == true)
    #expect(claims.exp == 3601)
    #expect(FirebaseIDTokenClaims(token: "nope") == nil)
  }
}
