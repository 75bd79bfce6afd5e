import AuthCrypto
import Foundation
import GoTrue
import HTTPServer
import Testing

@testable import AuthServer
@testable import GoTrueEngine

/// PKCE over the routes: challenges checked in GoTrue's words, `GET /verify` sending the
/// browser back with `?code=`, and `POST /token?grant_type=pkce`.
struct PKCERouteTests {
  static let verifier = "a-verifier-of-forty-three-or-more-characters-0123456789"
  static let challenge = Base64URL.encode(SHA256.hash(verifier))

  @Test func challengesAreCheckedAsGoTrueChecksThem() async throws {
    let server = try TestServer()
    let long = String(repeating: "a", count: 129)
    let cases: [(String, String)] = [
      (
        #""code_challenge":"\#(Self.challenge)""#,
        "PKCE flow requires code_challenge_method and code_challenge"
      ),
      (
        #""code_challenge":"short","code_challenge_method":"s256""#,
        "code challenge has to be between 43 and 128 characters"
      ),
      (
        #""code_challenge":"\#(long)","code_challenge_method":"s256""#,
        "code challenge has to be between 43 and 128 characters"
      ),
      (
        #""code_challenge":"\#(Self.challenge)!!","code_challenge_method":"s256""#,
        "code challenge can only contain alphanumeric characters, hyphens, periods, underscores and tildes"
      ),
      (
        #""code_challenge":"\#(Self.challenge)","code_challenge_method":"md5""#,
        "unsupported code_challenge method \"md5\""
      ),
    ]
    for (fields, message) in cases {
      for path in ["/recover", "/otp", "/magiclink"] {
        let reply = await server.send(
          .post, path, json: #"{"email":"test@example.com",\#(fields)}"#)
        #expect(reply.status == 400, "\(path) \(fields)")
        #expect(reply.object?["msg"] as? String == message, "\(path) \(fields)")
      }
    }
    let phone = await server.send(
      .post, "/signup",
      json:
        #"{"phone":"15555550100","password":"secret12","code_challenge":"\#(Self.challenge)","code_challenge_method":"s256"}"#
    )
    #expect(phone.object?["msg"] as? String == "PKCE not supported for phone signups")
  }

  @Test func aPKCELinkRedirectsWithItsCodeWhichTheVerifierExchanges() async throws {
    let server = try TestServer()
    let signup = await server.send(
      .post, "/signup",
      json:
        #"{"email":"ada@example.com","password":"secret123","code_challenge":"\#(Self.challenge)","code_challenge_method":"S256"}"#,
      query: [("redirect_to", "http://127.0.0.1:3000/welcome?next=%2Fhome&a=1#top")])
    #expect(signup.status == 200)
    let link = try #require(server.engine.outbox.newest(to: "ada@example.com")?.link)
    let query = try #require(URLComponents(string: link)?.queryItems)
    let token = try #require(query.first { $0.name == "token" }?.value)
    #expect(token.hasPrefix("pkce_"))

    let followed = await server.send(
      .get, "/verify",
      query: [
        ("token", token), ("type", "signup"),
        ("redirect_to", "http://127.0.0.1:3000/welcome?next=%2Fhome&a=1#top"),
      ])
    #expect(followed.status == 303)
    let location = try #require(followed.header("Location"))
    // Go's url.Values.Encode: the whole query re-encoded, sorted by name; the fragment kept.
    let code = try #require(
      URLComponents(string: location)?.queryItems?.first { $0.name == "code" }?.value)
    #expect(location == "http://127.0.0.1:3000/welcome?a=1&code=\(code)&next=%2Fhome#top")

    let empty = await server.send(
      .post, "/token", json: #"{"auth_code":"\#(code)"}"#, query: [("grant_type", "pkce")])
    #expect(empty.status == 400)
    #expect(
      empty.object?["msg"] as? String
        == "invalid request: both auth code and code verifier should be non-empty")
    let exchanged = await server.send(
      .post, "/token", json: #"{"auth_code":"\#(code)","code_verifier":"\#(Self.verifier)"}"#,
      query: [("grant_type", "pkce")])
    #expect(exchanged.status == 200)
    let user = try #require(exchanged.object?["user"] as? [String: Any])
    #expect(user["email"] as? String == "ada@example.com")
    let again = await server.send(
      .post, "/token", json: #"{"auth_code":"\#(code)","code_verifier":"\#(Self.verifier)"}"#,
      query: [("grant_type", "pkce")])
    #expect(again.status == 404)
    #expect(again.errorCode == "flow_state_not_found")
  }

  @Test func aPKCELinksErrorGoesInTheQueryAsWellAsTheFragment() async throws {
    let server = try TestServer()
    let used = await server.send(
      .get, "/verify",
      query: [("token", "pkce_" + String(repeating: "0", count: 56)), ("type", "recovery")])
    #expect(used.status == 303)
    let location = try #require(used.header("Location"))
    #expect(
      location
        == "http://127.0.0.1:3000?error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired"
        + "#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired&sb="
    )
    let implicit = await server.send(
      .get, "/verify", query: [("token", String(repeating: "0", count: 56)), ("type", "recovery")])
    #expect(implicit.header("Location")?.hasPrefix("http://127.0.0.1:3000#error=") == true)
  }

  @Test func aPhoneOnVerifyIsCheckedForItsFormFirst() async throws {
    let server = try TestServer()
    let malformed = await server.send(
      .post, "/verify", json: #"{"type":"sms","phone":"+0 12","token":"123456"}"#)
    #expect(malformed.status == 400)
    #expect(malformed.object?["msg"] as? String == "Invalid phone number format (E.164 required)")
    let wellFormed = await server.send(
      .post, "/verify", json: #"{"type":"sms","phone":"+1 555 555 0100","token":"123456"}"#)
    #expect(wellFormed.status == 403)
    #expect(wellFormed.errorCode == "otp_expired")
  }
}
