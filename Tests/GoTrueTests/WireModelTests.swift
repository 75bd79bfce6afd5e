import Foundation
import GoTrue
import Testing

/// Decoding GoTrue's JSON shapes (`tokens/service.go`, `models/user.go`).
struct WireModelTests {
  static let decoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    return decoder
  }()

  static let userJSON = """
    {"id":"8c5b…","aud":"authenticated","role":"authenticated","email":"a@b.co","phone":"",
     "email_confirmed_at":1735689600,"app_metadata":{"provider":"email","providers":["email"]},
     "user_metadata":{"first_name":"Ada","prefs":{"dark":true,"n":[1,null]}},
     "identities":[{"identity_id":"i1","user_id":"8c5b…","provider":"email","identity_data":{}}],
     "created_at":1735689600,"updated_at":1735689600,"is_anonymous":false}
    """

  @Test func userDecodesWithNestedMetadata() throws {
    let user = try Self.decoder.decode(GoTrueUser.self, from: Data(Self.userJSON.utf8))
    #expect(user.email == "a@b.co")
    #expect(user.emailConfirmedAt == Date(timeIntervalSince1970: 1_735_689_600))
    #expect(user.userMetadata["first_name"]?.stringValue == "Ada")
    #expect(
      user.userMetadata["prefs"]
        == .object(["dark": .bool(true), "n": .array([.number(1), .null])]))
    #expect(user.userMetadata["prefs"]?.stringValue == nil)
    #expect(user.identities?.first?.provider == "email")
  }

  @Test func sparseUserDecodes() throws {
    let user = try Self.decoder.decode(GoTrueUser.self, from: Data(#"{"id":"x"}"#.utf8))
    #expect(user.email == nil && user.identities == nil && user.userMetadata == [:])
  }

  @Test func signUpAnswersDecodeAsSessionOrUser() throws {
    let session = """
      {"access_token":"a","token_type":"bearer","expires_in":3600,"expires_at":1735693200,
       "refresh_token":"r","user":\(Self.userJSON)}
      """
    guard
      case .session(let decoded) = try Self.decoder.decode(
        GoTrueSignUpResponse.self, from: Data(session.utf8))
    else {
      Issue.record("a body with tokens is a session")
      return
    }
    #expect(decoded.expiresAt == 1_735_693_200 && decoded.refreshToken == "r")

    let fake = #"{"id":"f","email":"a@b.co","identities":[],"user_metadata":{}}"#
    guard
      case .user(let user) = try Self.decoder.decode(
        GoTrueSignUpResponse.self, from: Data(fake.utf8))
    else {
      Issue.record("a body without tokens is a user")
      return
    }
    #expect(user.identities == [])
  }

  @Test func sessionWithoutTokenTypeOrExpiresAt() throws {
    let json = #"{"access_token":"a","expires_in":60,"refresh_token":"r","user":{"id":"u"}}"#
    let session = try Self.decoder.decode(GoTrueSession.self, from: Data(json.utf8))
    #expect(session.tokenType == "bearer")
    #expect(session.expiresAt == nil)
  }

  @Test func modelsRoundTrip() throws {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .secondsSince1970
    let user = try Self.decoder.decode(GoTrueUser.self, from: Data(Self.userJSON.utf8))
    let session = GoTrueSession(
      accessToken: "a", expiresIn: 1, expiresAt: 2, refreshToken: "r", user: user)
    let again = try Self.decoder.decode(GoTrueSession.self, from: encoder.encode(session))
    #expect(again == session)
    let values: [JSONValue] = [
      .null, .bool(false), .number(2.5), .string("s"), .array([]), .object([:]),
    ]
    #expect(try JSONDecoder().decode([JSONValue].self, from: encoder.encode(values)) == values)
  }

  @Test(arguments: [
    #""expires_in": -1, "expires_at": 1700000000"#,
    #""expires_in": 99999999999, "expires_at": 1700000000"#,
    #""expires_in": 3600, "expires_at": -9223372036854775808"#,
    #""expires_in": 3600, "expires_at": 9223372036854775807"#,
  ])
  func sessionNumbersOutOfRangeDoNotDecode(numbers: String) {
    let json =
      #"{"access_token": "a", "refresh_token": "r", "#
      + numbers + #", "user": {"id": "u"}}"#
    #expect(throws: DecodingError.self) {
      try GoTrueCoding.decoder().decode(GoTrueSession.self, from: Data(json.utf8))
    }
  }
}
