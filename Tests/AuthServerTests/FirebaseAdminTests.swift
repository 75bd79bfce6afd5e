import Foundation
import GoTrue
import GoTrueEngine
import HTTPServer
import IdentityToolkit
import Testing

@testable import AuthServer

/// What the Admin SDKs call (`Bearer owner`), and the emulator's own routes.
struct FirebaseAdminTests {
  @Test func createLookUpUpdateAndDeleteAUser() async throws {
    let server = try FirebaseTestServer()
    let created = await server.admin(
      "accounts",
      #"{"localId":"uid-1","email":"Bob@example.com","password":"secret123","displayName":"Bob","emailVerified":true,"disabled":true}"#
    )
    #expect(
      created.text
        == #"{"kind":"identitytoolkit#SignupNewUserResponse","localId":"uid-1","displayName":"Bob","email":"bob@example.com"}"#
    )
    for (body, message) in [
      (#"{"localId":"uid-1","email":"x@example.com"}"#, "DUPLICATE_LOCAL_ID"),
      (#"{"email":"bob@example.com"}"#, "EMAIL_EXISTS"),
      (#"{"phoneNumber":"555"}"#, "INVALID_PHONE_NUMBER : Invalid format."),
      // Stricter than the emulator: E.164 after the `+`, as GoTrue keeps numbers.
      (#"{"email":"p@example.com","phoneNumber":"+1"}"#, "INVALID_PHONE_NUMBER : Invalid format."),
      (#"{"idToken":"t","localId":"u"}"#, "UNEXPECTED_PARAMETER : User ID"),
    ] {
      #expect(await server.admin("accounts", body).text == Reply.badRequestBody(message), "\(body)")
    }

    let lookup = await server.admin(
      "accounts:lookup", #"{"localId":["uid-1"],"email":["nobody@example.com"]}"#)
    let user = try #require((lookup.object?["users"] as? [[String: Any]])?.first)
    #expect(user["localId"] as? String == "uid-1")
    #expect(user["disabled"] as? Bool == true)
    #expect(user["emailVerified"] as? Bool == true)
    #expect(user["displayName"] as? String == "Bob")
    let none = await server.admin("accounts:lookup", #"{"localId":["nobody"]}"#)
    #expect(none.text == #"{"kind":"identitytoolkit#GetAccountInfoResponse"}"#)

    let updated = await server.admin(
      "accounts:update",
      #"{"localId":"uid-1","password":"another-secret","displayName":"Robert","emailVerified":false,"disableUser":false,"validSince":"1735689600"}"#
    )
    let answer = try #require(updated.object)
    #expect(answer["localId"] as? String == "uid-1")
    #expect(answer["displayName"] as? String == "Robert")
    #expect(answer["emailVerified"] as? Bool == false)
    #expect(answer["idToken"] != nil, "an admin's new password comes with tokens, as there")
    let signIn = await server.call(
      "signInWithPassword", #"{"email":"bob@example.com","password":"another-secret"}"#)
    #expect(signIn.status == 200)
    #expect(
      await server.admin("accounts:update", #"{"displayName":"x"}"#).text
        == Reply.badRequestBody("MISSING_LOCAL_ID"))
    #expect(
      await server.admin("accounts:update", #"{"localId":"nobody","displayName":"x"}"#).text
        == Reply.badRequestBody("USER_NOT_FOUND"))
    #expect(
      await server.admin("accounts:update", #"{"localId":"uid-1","customAttributes":"{}"}"#).status
        == 200)
    // Admins may use the public paths too, naming the user.
    let viaPublic = await server.send(
      .post, "\(FirebaseTestServer.v1)/accounts:update",
      body: #"{"localId":"uid-1","displayName":"Bobby"}"#,
      headers: [("Authorization", "Bearer owner")])
    #expect(viaPublic.object?["displayName"] as? String == "Bobby")
    let removed = await server.admin(
      "accounts:update",
      #"{"localId":"uid-1","deleteAttribute":["DISPLAY_NAME"],"deleteProvider":["phone"]}"#)
    #expect(removed.object?["displayName"] == nil)

    // GoTrue's admin API answers 404 for an id that is not a UUID.
    let goTrue = await server.send(
      .get, "/admin/users/uid-1",
      headers: [("Authorization", "Bearer " + server.engine.apiKey(role: "service_role"))])
    #expect(goTrue.status == 404)

    let deleted = await server.admin("accounts:delete", #"{"localId":"uid-1"}"#)
    #expect(deleted.text == #"{"kind":"identitytoolkit#DeleteAccountResponse"}"#)
    #expect(
      await server.admin("accounts:delete", #"{"localId":"uid-1"}"#).text
        == Reply.badRequestBody("USER_NOT_FOUND"))
    #expect(
      await server.admin("accounts:delete", #"{}"#).text == Reply.badRequestBody("MISSING_LOCAL_ID")
    )
  }

  @Test func batchGetPagesByIdAndBatchDeleteNeedsForce() async throws {
    let server = try FirebaseTestServer { $0.seedsDemoAccounts = false }
    for id in ["b", "a", "c"] {
      _ = await server.admin("accounts", #"{"localId":"\#(id)","email":"\#(id)@example.com"}"#)
    }
    let owner = [("Authorization", "Bearer owner")]
    let path = "\(FirebaseTestServer.admin)/accounts:batchGet"
    let first = await server.send(.get, path, query: [("maxResults", "2")], headers: owner)
    let page = try #require(first.object)
    #expect(page["kind"] as? String == "identitytoolkit#DownloadAccountResponse")
    #expect((page["users"] as? [[String: Any]])?.map { $0["localId"] as? String } == ["a", "b"])
    #expect(page["nextPageToken"] as? String == "b")
    let last = await server.send(
      .get, path, query: [("maxResults", "2"), ("nextPageToken", "b")], headers: owner)
    #expect((last.object?["users"] as? [[String: Any]])?.count == 1)
    #expect(last.object?["nextPageToken"] == nil)
    #expect(await server.send(.get, path).status == 403)

    let refused = await server.admin("accounts:batchDelete", #"{"localIds":["a","zz"]}"#)
    #expect(
      refused.text
        == #"{"errors":[{"index":0,"localId":"a","message":"NOT_DISABLED : Disable the account before batch deletion."}]}"#
    )
    #expect(
      await server.admin("accounts:batchDelete", #"{"localIds":["a","b"],"force":true}"#).text
        == "{}")
    #expect(
      await server.admin("accounts:batchDelete", #"{"localIds":[]}"#).text
        == Reply.badRequestBody("LOCAL_ID_LIST_EXCEEDS_LIMIT"))
    let rest = await server.send(.get, path, headers: owner)
    #expect((rest.object?["users"] as? [[String: Any]])?.count == 1)
  }

  @Test func anAdminGetsLinksAndTheyOpenTheEmulatorsPage() async throws {
    let server = try FirebaseTestServer()
    let reset = await server.admin(
      "accounts:sendOobCode",
      #"{"requestType":"PASSWORD_RESET","email":"test@example.com","returnOobLink":true}"#)
    let link = try #require(reset.object?["oobLink"] as? String)
    let code = try #require(reset.object?["oobCode"] as? String)
    #expect(link.contains("mode=resetPassword&lang=en&oobCode=\(code)&apiKey=fake-api-key"))
    #expect(server.engine.outbox.messages.isEmpty, "a returned link is not mailed")
    let verify = await server.admin(
      "accounts:sendOobCode",
      #"{"requestType":"VERIFY_EMAIL","email":"unverified@example.com","returnOobLink":true}"#)
    let verifyCode = try #require(verify.object?["oobCode"] as? String)
    #expect(
      try await server.oobCodes().map { $0["requestType"] } == ["PASSWORD_RESET", "VERIFY_EMAIL"])

    func open(_ query: [(String, String)]) async -> Reply {
      await server.send(.get, "/emulator/action", query: query)
    }
    let noKey = await open([("mode", "verifyEmail"), ("oobCode", verifyCode)])
    #expect(noKey.status == 400)
    #expect(
      noKey.text == """
        {
          "authEmulator": {
            "error": "missing apiKey query parameter",
            "instructions": "Please modify the URL to specify an apiKey, such as ...&apiKey=YOUR_API_KEY"
          }
        }
        """)
    let key = ("apiKey", "fake-api-key")
    #expect(await open([("mode", "verifyEmail"), key]).status == 400)
    #expect(
      await open([("mode", "signOut"), ("oobCode", code), key]).text
        == "{\n  \"authEmulator\": {\n    \"error\": \"Invalid mode\"\n  }\n}")
    let verified = await open([("mode", "verifyEmail"), ("oobCode", verifyCode), key])
    #expect(verified.status == 200)
    #expect(verified.header("Content-Type") == "application/json; charset=utf-8")
    let success = try #require(verified.object?["authEmulator"] as? [String: String])
    #expect(
      success == [
        "success": "The email has been successfully verified.", "email": "unverified@example.com",
      ])
    let reused = await open([("mode", "verifyEmail"), ("oobCode", verifyCode), key])
    #expect(
      (reused.object?["authEmulator"] as? [String: String])?["error"]
        == "Your request to verify your email has expired or the link has already been used.")

    let withoutPassword = await open([("mode", "resetPassword"), ("oobCode", code), key])
    let instructions = try #require(withoutPassword.object?["authEmulator"] as? [String: String])
    #expect(instructions["error"] == "missing newPassword query parameter")
    #expect(instructions["urlTemplate"] == link + "&newPassword=NEW_PASSWORD_HERE")
    let placeholder = await open(
      [("mode", "resetPassword"), ("oobCode", code), key, ("newPassword", "NEW_PASSWORD_HERE")])
    #expect(placeholder.status == 400)
    let weak = await open([("mode", "resetPassword"), ("oobCode", code), key, ("newPassword", "1")])
    #expect(weak.googleMessage == "WEAK_PASSWORD : Password should be at least 6 characters")
    let done = await open(
      [
        ("mode", "resetPassword"), ("oobCode", code), key, ("newPassword", "secret456"),
        ("continueUrl", "http://127.0.0.1:3000/welcome"),
      ])
    #expect(done.status == 303)
    #expect(done.header("Location") == "http://127.0.0.1:3000/welcome")
    let signIn = await server.call(
      "signInWithPassword", #"{"email":"test@example.com","password":"secret456"}"#)
    #expect(signIn.status == 200)
    #expect(try await server.oobCodes().isEmpty)
  }

  @Test func theEmulatorsOwnRoutesResetConfigureAndList() async throws {
    let server = try FirebaseTestServer()
    let emulator = FirebaseTestServer.emulator
    let config = await server.send(.get, "\(emulator)/config")
    #expect(
      config.text
        == #"{"signIn":{"allowDuplicateEmails":false},"emailPrivacyConfig":{"enableImprovedEmailPrivacy":false}}"#
    )
    let patched = await server.send(
      .patch, "\(emulator)/config",
      body: #"{"emailPrivacyConfig":{"enableImprovedEmailPrivacy":true}}"#)
    #expect(patched.text.hasSuffix(#""enableImprovedEmailPrivacy":true}}"#))
    let hidden = await server.call(
      "signInWithPassword", #"{"email":"nobody@example.com","password":"secret123"}"#)
    #expect(hidden.text == Reply.badRequestBody("INVALID_LOGIN_CREDENTIALS"))
    let quiet = await server.call(
      "sendOobCode", #"{"requestType":"PASSWORD_RESET","email":"nobody@example.com"}"#)
    #expect(quiet.status == 200)
    let duplicates = await server.send(
      .patch, "\(emulator)/config", body: #"{"signIn":{"allowDuplicateEmails":true}}"#)
    #expect(
      duplicates.text
        == #"{"signIn":{"allowDuplicateEmails":true},"emailPrivacyConfig":{"enableImprovedEmailPrivacy":true}}"#
    )
    #expect(
      await server.send(.get, "\(emulator)/verificationCodes").text == #"{"verificationCodes":[]}"#)
    #expect(try await server.oobCodes().isEmpty)
    let wiped = await server.send(.delete, "\(emulator)/accounts")
    #expect(wiped.text == "{}")
    #expect(try server.engine.accountCount() == 0)
    let projects = await server.send(
      .get, "\(FirebaseTestServer.v1)/projects", query: [("key", "k")])
    #expect(projects.text == #"{"projectId":"12345","authorizedDomains":["localhost"]}"#)
  }
}
