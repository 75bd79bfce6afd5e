import Foundation
import GoTrue
import GoTrueEngine
import HTTPServer
import IdentityToolkit
import Testing

@testable import AccountStore
@testable import AuthServer
@testable import FirebaseEmulator

/// Out-of-band codes over HTTP: `sendOobCode`, `resetPassword`, `accounts:update` with
/// `oobCode` and `signInWithEmailLink`, answered byte for byte as the emulator answers.
struct FirebaseCodeRouteTests {
  @Test func anAdminsLinkAndTheListingHaveTheEmulatorsShape() async throws {
    let server = try FirebaseTestServer()
    let signedUp = try await server.signUp("alice@example.com")
    let idToken = try #require(signedUp["idToken"] as? String)
    let sent = await server.admin(
      "accounts:sendOobCode",
      #"{"requestType":"VERIFY_AND_CHANGE_EMAIL","idToken":"\#(idToken)","newEmail":"Bob@Example.com","returnOobLink":true,"continueUrl":"http://127.0.0.1:3000/x?a=b"}"#
    )
    let code = try #require(sent.object?["oobCode"] as? String)
    let link =
      "http://127.0.0.1:9099/emulator/action?mode=verifyAndChangeEmail&lang=en&oobCode=\(code)&apiKey=fake-api-key&continueUrl=http%3A%2F%2F127.0.0.1%3A3000%2Fx%3Fa%3Db"
    #expect(
      sent.text
        == #"{"kind":"identitytoolkit#GetOobConfirmationCodeResponse","email":"alice@example.com","oobCode":"\#(code)","oobLink":"\#(link)"}"#
    )
    let listing = await server.send(.get, "\(FirebaseTestServer.emulator)/oobCodes")
    #expect(
      listing.text
        == #"{"oobCodes":[{"email":"alice@example.com","newEmail":"bob@example.com","requestType":"VERIFY_AND_CHANGE_EMAIL","oobCode":"\#(code)","oobLink":"\#(link)"}]}"#
    )
    #expect(server.engine.outbox.messages.isEmpty, "a returned link is not mailed")
  }

  @Test func requestTypesAreNamesOrTheirNumbers() async throws {
    let server = try FirebaseTestServer()
    let signedUp = try await server.signUp("alice@example.com")
    let idToken = try #require(signedUp["idToken"] as? String)
    let fields = #""email":"test@example.com","idToken":"\#(idToken)","newEmail":"bob@example.com""#
    for (type, listed) in [
      ("1", "PASSWORD_RESET"), ("4", "VERIFY_EMAIL"), ("6", "EMAIL_SIGNIN"),
      ("7", "VERIFY_AND_CHANGE_EMAIL"), (#""6""#, "EMAIL_SIGNIN"),
      (#""VERIFY_EMAIL""#, "VERIFY_EMAIL"),
    ] {
      let reply = await server.call("sendOobCode", #"{"requestType":\#(type),\#(fields)}"#)
      #expect(reply.status == 200, "\(type): \(reply.text)")
      #expect(try await server.oobCodes().last?["requestType"] == listed, "\(type)")
    }
    #expect(
      await server.call("sendOobCode", #"{"requestType":0,"email":"a@b.co"}"#).text
        == Reply.badRequestBody("MISSING_REQ_TYPE"))
    for type in ["5", #""RECOVER_EMAIL""#, "3"] {
      let reply = await server.call("sendOobCode", #"{"requestType":\#(type),"email":"a@b.co"}"#)
      #expect(reply.status == 501, "\(type)")
      #expect(reply.header("Content-Type") == "application/json; charset=utf-8")
    }
    #expect(
      await server.call("sendOobCode", #"{"requestType":5}"#).text == """
        {
          "error": {
            "code": 501,
            "message": "RECOVER_EMAIL",
            "errors": [
              {
                "message": "RECOVER_EMAIL",
                "reason": "unimplemented"
              }
            ],
            "status": "NOT_IMPLEMENTED"
          }
        }
        """)
    for type in ["9", #""FOO""#, #""""#] {
      let reply = await server.call("sendOobCode", #"{"requestType":\#(type)}"#)
      #expect(
        reply.googleMessage
          == "Invalid JSON payload received. /requestType should be equal to one of the allowed values",
        "\(type)")
    }
    #expect(try await server.oobCodes().count == 6, "no refused request made a code")
  }

  @Test func resetPasswordTellsWhatACodeIsForWithoutSpendingIt() async throws {
    let server = try FirebaseTestServer()
    let signedUp = try await server.signUp("alice@example.com")
    let idToken = try #require(signedUp["idToken"] as? String)
    for body in [
      #"{"requestType":"PASSWORD_RESET","email":"alice@example.com"}"#,
      #"{"requestType":"EMAIL_SIGNIN","email":"carol@example.com"}"#,
      #"{"requestType":"VERIFY_AND_CHANGE_EMAIL","idToken":"\#(idToken)","newEmail":"bob@example.com"}"#,
    ] {
      #expect(await server.call("sendOobCode", body).status == 200)
    }
    let codes = try await server.oobCodes().compactMap { $0["oobCode"] }
    let kind = #""kind":"identitytoolkit#ResetPasswordResponse""#
    let answers = [
      #"{\#(kind),"requestType":"PASSWORD_RESET","email":"alice@example.com"}"#,
      #"{\#(kind),"requestType":"EMAIL_SIGNIN"}"#,
      #"{\#(kind),"requestType":"VERIFY_AND_CHANGE_EMAIL","email":"alice@example.com","newEmail":"bob@example.com"}"#,
    ]
    for (code, answer) in zip(codes, answers) {
      #expect(await server.call("resetPassword", #"{"oobCode":"\#(code)"}"#).text == answer)
    }
    #expect(try await server.oobCodes().count == 3, "looking spends nothing")
    let wrongType = await server.call(
      "resetPassword", #"{"oobCode":"\#(codes[1])","newPassword":"secret456"}"#)
    #expect(wrongType.text == Reply.badRequestBody("INVALID_OOB_CODE"))
    let reset = await server.call(
      "resetPassword", #"{"oobCode":"\#(codes[0])","newPassword":"secret456"}"#)
    #expect(reset.text == answers[0])
    #expect(try await server.oobCodes().count == 2)
  }

  @Test func updateAppliesACodeBeforeReadingAnyChange() async throws {
    let server = try FirebaseTestServer()
    let signedUp = try await server.signUp("alice@example.com")
    let idToken = try #require(signedUp["idToken"] as? String)
    let localId = try #require(signedUp["localId"] as? String)
    _ = await server.call(
      "sendOobCode",
      #"{"requestType":"VERIFY_AND_CHANGE_EMAIL","idToken":"\#(idToken)","newEmail":"bob@example.com"}"#
    )
    _ = await server.call(
      "sendOobCode", #"{"requestType":"PASSWORD_RESET","email":"alice@example.com"}"#)
    let codes = try await server.oobCodes().compactMap { $0["oobCode"] }
    let provider = await server.call("update", #"{"oobCode":"\#(codes[0])","provider":"x"}"#)
    #expect(provider.googleMessage == "provider is not implemented yet.")
    let noLocalId = await server.admin("accounts:update", #"{"oobCode":"\#(codes[0])"}"#)
    #expect(noLocalId.text == Reply.badRequestBody("MISSING_LOCAL_ID"))
    let reset = await server.call("update", #"{"oobCode":"\#(codes[1])"}"#)
    #expect(reset.status == 501 && reset.googleMessage == "PASSWORD_RESET")
    #expect(try await server.oobCodes().count == 2, "neither code spent")

    let applied = await server.call(
      "update", #"{"oobCode":"\#(codes[0])","displayName":"ignored","phoneNumber":"+1555"}"#)
    #expect(
      applied.text
        == #"{"kind":"identitytoolkit#SetAccountInfoResponse","localId":"\#(localId)","emailVerified":true,"providerUserInfo":[{"providerId":"password","email":"bob@example.com","federatedId":"bob@example.com","rawId":"bob@example.com"}],"email":"bob@example.com","newEmail":"bob@example.com","passwordHash":"UkVEQUNURUQ="}"#
    )
    #expect(
      await server.call("update", #"{"oobCode":"\#(codes[0])"}"#).text
        == Reply.badRequestBody("INVALID_OOB_CODE"))
  }

  @Test func theWayBackFromAnEmailChangeIsAppliedByUpdate() async throws {
    let server = try FirebaseTestServer()
    let signedUp = try await server.signUp("alice@example.com")
    let localId = try #require(signedUp["localId"] as? String)
    let issued = try server.emulation.write { database, now in
      try database.run(
        "UPDATE users SET email = 'bob@example.com' WHERE id = ?", .text(localId))
      return try server.emulation.recordEmailChange(
        ofUser: localId, from: "alice@example.com", to: "bob@example.com", anonymous: false,
        database, now: now)
    }
    server.emulation.publish(issued.map { [$0] } ?? [])
    let listed = try #require(try await server.oobCodes().first)
    #expect(listed["email"] == "alice@example.com" && listed["requestType"] == "RECOVER_EMAIL")
    #expect(server.engine.outbox.newest(to: "alice@example.com")?.link == listed["oobLink"])
    let code = try #require(listed["oobCode"])
    let recovered = await server.call("update", #"{"oobCode":"\#(code)"}"#)
    #expect(recovered.object?["email"] as? String == "alice@example.com")
    #expect(recovered.object?["emailVerified"] as? Bool == true)
    #expect(recovered.object?["newEmail"] == nil && recovered.object?["idToken"] == nil)
  }

  @Test func anEmailLinkSignsInAsTheEmulatorAnswers() async throws {
    let server = try FirebaseTestServer()
    let sent = await server.call(
      "sendOobCode", #"{"requestType":"EMAIL_SIGNIN","email":"Carol@Example.com"}"#)
    #expect(
      sent.text
        == #"{"kind":"identitytoolkit#GetOobConfirmationCodeResponse","email":"carol@example.com"}"#
    )
    let code = try #require(try await server.oobCodes().first?["oobCode"])
    let mismatch = await server.call(
      "signInWithEmailLink", #"{"email":"dave@example.com","oobCode":"\#(code)"}"#)
    #expect(
      mismatch.text
        == Reply.badRequestBody(
          "INVALID_EMAIL : The email provided does not match the sign-in email address."))
    let legacy = "/www.googleapis.com/identitytoolkit/v3/relyingparty/emailLinkSignin"
    let signedIn = await server.send(
      .post, legacy, body: #"{"email":"carol@example.com","oobCode":"\#(code)"}"#,
      query: [("key", "k")])
    let answer = try #require(signedIn.object)
    let localId = try #require(answer["localId"] as? String)
    let idToken = try #require(answer["idToken"] as? String)
    let refreshToken = try #require(answer["refreshToken"] as? String)
    #expect(
      signedIn.text
        == #"{"kind":"identitytoolkit#EmailLinkSigninResponse","email":"carol@example.com","localId":"\#(localId)","isNewUser":true,"idToken":"\#(idToken)","refreshToken":"\#(refreshToken)","expiresIn":"3600"}"#
    )
    let lookup = await server.call("lookup", #"{"idToken":"\#(idToken)"}"#)
    let user = try #require((lookup.object?["users"] as? [[String: Any]])?.first)
    #expect(user["emailLinkSignin"] as? Bool == true && user["emailVerified"] as? Bool == true)
    #expect(user["passwordHash"] == nil)
    let providers = try #require(user["providerUserInfo"] as? [[String: String]])
    #expect(providers.map { $0["providerId"] } == ["password"])
    let again = await server.call(
      "signInWithEmailLink", #"{"email":"carol@example.com","oobCode":"\#(code)"}"#)
    #expect(again.text == Reply.badRequestBody("INVALID_OOB_CODE"))
  }
}
