import Foundation
import HTTPServer
import Testing

@testable import AuthServer

/// Phone numbers on the wire, as the emulator writes them: an admin's, the user record's
/// `phoneNumber` and `phone` provider entry, and phone sign-in through `verificationCodes`.
struct FirebasePhoneRouteTests {
  static let number = "+15555550100"

  @Test func anAdminsNumberIsInTheRecordAndItsProviderEntry() async throws {
    let server = try FirebaseTestServer()
    let made = await server.admin(
      "accounts", #"{"localId":"p1","phoneNumber":"\#(Self.number)","displayName":"Pat"}"#)
    #expect(
      made.text
        == #"{"kind":"identitytoolkit#SignupNewUserResponse","localId":"p1","displayName":"Pat"}"#)
    let taken = await server.admin("accounts", #"{"phoneNumber":"\#(Self.number)"}"#)
    #expect(taken.text == Reply.badRequestBody("PHONE_NUMBER_EXISTS"))

    let found = await server.admin(
      "accounts:lookup", #"{"phoneNumber":["\#(Self.number)","+15555550199"]}"#)
    let users = try #require(found.object?["users"] as? [[String: Any]])
    #expect(users.count == 1 && users[0]["localId"] as? String == "p1")
    #expect(users[0]["phoneNumber"] as? String == Self.number && users[0]["email"] == nil)
    #expect(
      found.text.contains(
        #""providerUserInfo":[{"providerId":"phone","phoneNumber":"+15555550100","rawId":"+15555550100"}]"#
      ))
    let page = await server.send(
      .get, "\(FirebaseTestServer.admin)/accounts:batchGet",
      headers: [("Authorization", "Bearer owner")])
    #expect(page.text.contains(#""displayName":"Pat","phoneNumber":"+15555550100""#))

    let invalid = await server.admin("accounts:update", #"{"localId":"p1","phoneNumber":"555"}"#)
    #expect(invalid.text == Reply.badRequestBody("INVALID_PHONE_NUMBER : Invalid format."))
    let removed = await server.admin(
      "accounts:update", #"{"localId":"p1","deleteProvider":["phone"]}"#)
    #expect(removed.status == 200 && removed.text.contains(#""providerUserInfo":[]"#))
    let bare = await server.admin("accounts:lookup", #"{"localId":["p1"]}"#)
    #expect(!bare.text.contains("phone"), "\(bare.text)")
  }

  @Test func aCodeListedByTheEmulatorSignsTheNumberIn() async throws {
    let server = try FirebaseTestServer()
    let sent = await server.call(
      "sendVerificationCode", #"{"phoneNumber":"\#(Self.number)","recaptchaToken":"ignored"}"#)
    let sessionInfo = try #require(sent.object?["sessionInfo"] as? String)
    #expect(sent.text == #"{"sessionInfo":"\#(sessionInfo)"}"#)
    let listing = await server.send(.get, "\(FirebaseTestServer.emulator)/verificationCodes")
    let entry = try #require(
      (listing.object?["verificationCodes"] as? [[String: String]])?.first)
    let code = try #require(entry["code"])
    #expect(
      listing.text
        == #"{"verificationCodes":[{"code":"\#(code)","phoneNumber":"\#(Self.number)","sessionInfo":"\#(sessionInfo)"}]}"#
    )

    let signedIn = await server.call(
      "signInWithPhoneNumber", #"{"sessionInfo":"\#(sessionInfo)","code":"\#(code)"}"#)
    let answer = try #require(signedIn.object)
    let id = try #require(answer["localId"] as? String)
    let idToken = try #require(answer["idToken"] as? String)
    let refresh = try #require(answer["refreshToken"] as? String)
    #expect(
      signedIn.text
        == #"{"isNewUser":true,"phoneNumber":"\#(Self.number)","localId":"\#(id)","idToken":"\#(idToken)","refreshToken":"\#(refresh)","expiresIn":"3600"}"#
    )
    #expect(
      await server.send(.get, "\(FirebaseTestServer.emulator)/verificationCodes").text
        == #"{"verificationCodes":[]}"#)
    let again = await server.call(
      "signInWithPhoneNumber", #"{"sessionInfo":"\#(sessionInfo)","code":"\#(code)"}"#)
    #expect(again.text == Reply.badRequestBody("INVALID_SESSION_INFO"))
    let mine = await server.call("lookup", #"{"idToken":"\#(idToken)"}"#)
    #expect(
      (mine.object?["users"] as? [[String: Any]])?.first?["phoneNumber"] as? String == Self.number)
  }

  @Test func aNumberAnotherAccountHasAnswersAProofThenItsError() async throws {
    let server = try FirebaseTestServer()
    _ = await server.admin("accounts", #"{"phoneNumber":"\#(Self.number)"}"#)
    let anonymous = try #require(
      await server.call("signUp", #"{"returnSecureToken":true}"#).object?["idToken"] as? String)
    let sent = await server.call("sendVerificationCode", #"{"phoneNumber":"\#(Self.number)"}"#)
    let sessionInfo = try #require(sent.object?["sessionInfo"] as? String)
    let code = try #require(
      (await server.send(.get, "\(FirebaseTestServer.emulator)/verificationCodes")
        .object?["verificationCodes"] as? [[String: String]])?.first?["code"])
    let linked = await server.call(
      "signInWithPhoneNumber",
      #"{"sessionInfo":"\#(sessionInfo)","code":"\#(code)","idToken":"\#(anonymous)"}"#)
    let proof = try #require(linked.object?["temporaryProof"] as? String)
    #expect(
      linked.text
        == #"{"phoneNumber":"\#(Self.number)","temporaryProof":"\#(proof)","temporaryProofExpiresIn":"3600"}"#
    )
    let retried = await server.call(
      "signInWithPhoneNumber",
      #"{"phoneNumber":"\#(Self.number)","temporaryProof":"\#(proof)","idToken":"\#(anonymous)"}"#)
    #expect(retried.text == Reply.badRequestBody("PHONE_NUMBER_EXISTS"))
  }
}
