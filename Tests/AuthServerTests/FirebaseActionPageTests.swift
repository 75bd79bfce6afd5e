import Foundation
import GoTrue
import GoTrueEngine
import HTTPServer
import IdentityToolkit
import Testing

@testable import AccountStore
@testable import AuthServer
@testable import FirebaseEmulator

/// `/emulator/action`, the page every emailed link opens, mode by mode.
struct FirebaseActionPageTests {
  /// Opens `mode` with `code` (and `extra` query pairs); the reply.
  private func open(
    _ server: FirebaseTestServer, _ mode: String, _ code: String, _ extra: [(String, String)] = []
  ) async -> Reply {
    await server.send(
      .get, "/emulator/action",
      query: [("mode", mode), ("lang", "en"), ("oobCode", code), ("apiKey", "fake-api-key")]
        + extra)
  }

  private func page(_ reply: Reply) -> [String: String]? {
    reply.object?["authEmulator"] as? [String: String]
  }

  @Test func aChangeOfAddressIsVerifiedThenTakenBack() async throws {
    let server = try FirebaseTestServer()
    let signedUp = try await server.signUp("alice@example.com")
    let idToken = try #require(signedUp["idToken"] as? String)
    let localId = try #require(signedUp["localId"] as? String)
    _ = await server.call(
      "sendOobCode",
      #"{"requestType":"VERIFY_AND_CHANGE_EMAIL","idToken":"\#(idToken)","newEmail":"bob@example.com"}"#
    )
    let change = try #require(try await server.oobCodes().first?["oobCode"])
    let changed = await open(server, "verifyAndChangeEmail", change)
    #expect(changed.status == 200)
    #expect(
      changed.text == """
        {
          "authEmulator": {
            "success": "The email has been successfully changed.",
            "newEmail": "bob@example.com"
          }
        }
        """)
    let used = await open(server, "verifyAndChangeEmail", change)
    #expect(
      page(used) == [
        "error": "Your request to change your email has expired or the link has already been used.",
        "instructions": "Try changing your email again.",
      ])

    let issued = try server.emulation.write { database, now in
      try database.run("UPDATE users SET email = 'carol@example.com' WHERE id = ?", .text(localId))
      return try server.emulation.recordEmailChange(
        ofUser: localId, from: "bob@example.com", to: "carol@example.com", anonymous: false,
        database, now: now)
    }
    server.emulation.publish(issued.map { [$0] } ?? [])
    let recover = try #require(try await server.oobCodes().first?["oobCode"])
    let retry =
      "If you're trying to test the reverting email flow, try changing the email again to generate a new link."
    #expect(
      page(await open(server, "recoverEmail", change)) == [
        "error": "Requested mode does not match the OOB code provided.", "instructions": retry,
      ])
    let back = await open(
      server, "recoverEmail", recover, [("continueUrl", "http://127.0.0.1:3000/")])
    #expect(back.status == 200, "recoverEmail never redirects")
    #expect(
      page(back) == [
        "success": "The email has been successfully reset.", "email": "bob@example.com",
      ])
    #expect(
      page(await open(server, "recoverEmail", recover))?["error"]
        == "Requested mode does not match the OOB code provided.")
  }

  @Test func verifyEmailAppliesWhateverCodeUpdateWouldAndRedirects() async throws {
    let server = try FirebaseTestServer()
    let signedUp = try await server.signUp("alice@example.com")
    let idToken = try #require(signedUp["idToken"] as? String)
    _ = await server.call(
      "sendOobCode",
      #"{"requestType":"VERIFY_AND_CHANGE_EMAIL","idToken":"\#(idToken)","newEmail":"bob@example.com"}"#
    )
    _ = await server.call("sendOobCode", #"{"requestType":"EMAIL_SIGNIN","email":"x@example.com"}"#)
    let codes = try await server.oobCodes().compactMap { $0["oobCode"] }
    let signIn = await open(server, "verifyEmail", codes[1])
    #expect(
      page(signIn)?["error"]
        == "Your request to verify your email has expired or the link has already been used.")
    let verified = await open(
      server, "verifyEmail", codes[0], [("continueUrl", "http://127.0.0.1:3000/verified")])
    #expect(verified.status == 303)
    #expect(verified.header("Location") == "http://127.0.0.1:3000/verified")
    let lookup = await server.call("lookup", #"{"idToken":"\#(idToken)"}"#)
    #expect(
      (lookup.object?["users"] as? [[String: Any]])?.first?["email"] as? String == "bob@example.com"
    )
  }

  @Test func anAddressTakenMeanwhileIsTheEmulatorsErrorBody() async throws {
    let server = try FirebaseTestServer()
    let signedUp = try await server.signUp("alice@example.com")
    let idToken = try #require(signedUp["idToken"] as? String)
    _ = await server.call(
      "sendOobCode",
      #"{"requestType":"VERIFY_AND_CHANGE_EMAIL","idToken":"\#(idToken)","newEmail":"bob@example.com"}"#
    )
    let code = try #require(try await server.oobCodes().first?["oobCode"])
    _ = try await server.signUp("bob@example.com")
    #expect(
      await open(server, "verifyAndChangeEmail", code).text == Reply.badRequestBody("EMAIL_EXISTS"))
  }

  @Test func aSignInLinkTakesItsParametersToTheApp() async throws {
    let server = try FirebaseTestServer()
    _ = await server.call("sendOobCode", #"{"requestType":"EMAIL_SIGNIN","email":"x@example.com"}"#)
    let code = try #require(try await server.oobCodes().first?["oobCode"])
    #expect(
      page(await open(server, "signIn", code)) == [
        "error": "Missing continueUrl query parameter",
        "instructions": "To sign in, append &continueUrl=YOUR_APP_URL to the link.",
      ])
    let redirected = await open(
      server, "signIn", code,
      [("continueUrl", "http://127.0.0.1:3000/finish?x=a+b&mode=old&mode=older#done")])
    #expect(redirected.status == 303)
    #expect(
      redirected.header("Location")
        == "http://127.0.0.1:3000/finish?x=a+b&mode=signIn&lang=en&oobCode=\(code)&apiKey=fake-api-key#done"
    )
    let elsewhere = await open(
      server, "signIn", code, [("continueUrl", "https://evil.example/steal"), ("lang", "fr")])
    #expect(
      elsewhere.header("Location")
        == "http://127.0.0.1:3000/?mode=signIn&oobCode=\(code)&apiKey=fake-api-key",
      "an unlisted URL is the site URL; a parameter given twice is not set")
    #expect(try await server.oobCodes().count == 1, "the page spends nothing; the app does")
  }

  @Test func theRedirectSetsEachParameterAsURLSearchParamsDoes() {
    let query: [(name: String, value: String)] = [
      ("mode", "signIn"), ("oobCode", "c/d"), ("continueUrl", "ignored"),
    ]
    for (target, expected) in [
      ("http://127.0.0.1:3000", "http://127.0.0.1:3000/?mode=signIn&oobCode=c%2Fd"),
      ("myapp://open/x?oobCode=old", "myapp://open/x?oobCode=c%2Fd&mode=signIn"),
      ("http://h/p?a=%7E&b#f#g", "http://h/p?a=%7E&b=&mode=signIn&oobCode=c%2Fd#f#g"),
    ] {
      #expect(EmulatorRedirect.url(target, with: query) == expected, "\(target)")
    }
  }
}
