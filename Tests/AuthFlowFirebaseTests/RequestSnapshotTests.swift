import AuthFlowFirebase
import Foundation
import HTTPClient
import TestSupport
import Testing

/// Every call's method, URL (with the key), headers and body, against a checked-in text in
/// Requests/. `UPDATE_SNAPSHOTS=1 swift test` rewrites them.
struct RequestSnapshotTests {
  private func check(
    _ name: String, on project: FirebaseProject = testProject, reply: ReplayTransport.Reply,
    call: (FirebaseClient) async throws -> Void
  ) async throws {
    let transport = ReplayTransport(reply)
    try await call(FirebaseClient(project: project, transport: transport))
    let request = try #require(transport.requests.first)
    #expect(transport.requests.count == 1)
    try expectSnapshot(
      of: request, named: name, in: testFolder.appendingPathComponent("Requests"))
  }

  @Test func signUp() async throws {
    try await check("signUp", reply: signInAnswer()) {
      _ = try await $0.signUp(email: "newuser@example.com", password: "NewPassword123!")
    }
  }

  @Test func signInWithPassword() async throws {
    try await check("signInWithPassword", reply: signInAnswer()) {
      _ = try await $0.signIn(email: "test@example.com", password: "TestPassword123!")
    }
  }

  @Test func signInOnTheEmulator() async throws {
    try await check("signInOnTheEmulator", on: emulatorProject, reply: signInAnswer()) {
      _ = try await $0.signIn(email: "test@example.com", password: "TestPassword123!")
    }
  }

  @Test func sendOobCodeVerifyEmail() async throws {
    try await check("sendOobCodeVerifyEmail", reply: oobAnswer()) {
      _ = try await $0.sendEmailVerification(idToken: "id-token-1")
    }
  }

  @Test func sendOobCodePasswordReset() async throws {
    try await check("sendOobCodePasswordReset", reply: oobAnswer()) {
      _ = try await $0.sendPasswordReset(email: "test@example.com")
    }
  }

  @Test func resetPasswordCheckingTheCode() async throws {
    try await check("resetPasswordCheckingTheCode", reply: resetAnswer) {
      _ = try await $0.checkActionCode("oob-code-1")
    }
  }

  @Test func resetPassword() async throws {
    try await check("resetPassword", reply: resetAnswer) {
      _ = try await $0.resetPassword(oobCode: "oob-code-1", newPassword: "BrandNew123")
    }
  }

  @Test func updateDisplayName() async throws {
    try await check("updateDisplayName", reply: updateAnswer) {
      _ = try await $0.updateProfile(idToken: "id-token-1", displayName: "Ada Lovelace")
    }
  }

  @Test func updatePassword() async throws {
    try await check("updatePassword", reply: updateAnswer) {
      _ = try await $0.updatePassword(idToken: "id-token-1", password: "BrandNew123")
    }
  }

  @Test func updateApplyingAVerificationCode() async throws {
    try await check("updateApplyingAVerificationCode", reply: updateAnswer) {
      _ = try await $0.applyActionCode("oob-code-2")
    }
  }

  @Test func lookup() async throws {
    let users = #"{"kind":"identitytoolkit#GetAccountInfoResponse","users":[{"localId":"uid-1"}]}"#
    try await check("lookup", reply: ok(users)) {
      let answer = try await $0.lookup(idToken: "id-token-1")
      #expect(answer.users?.first?.localId == "uid-1")
    }
  }

  @Test func delete() async throws {
    try await check("delete", reply: ok(#"{"kind":"identitytoolkit#DeleteAccountResponse"}"#)) {
      try await $0.deleteAccount(idToken: "id-token-1")
    }
  }

  /// Form-encoded, as the SDKs send it; the emulator's refresh tokens are base64 with `+/=`.
  @Test func secureTokenRefresh() async throws {
    try await check("secureTokenRefresh", reply: tokenAnswer(token: idToken())) {
      let answer = try await $0.refresh(refreshToken: "eyJfQXV0aA+/x=")
      #expect(answer.refreshToken == "refresh-2")
    }
  }

  @Test func secureTokenRefreshOnTheEmulator() async throws {
    try await check(
      "secureTokenRefreshOnTheEmulator", on: emulatorProject, reply: tokenAnswer(token: idToken())
    ) {
      _ = try await $0.refresh(refreshToken: "refresh-1")
    }
  }

  @Test func emulatorCodeList() async throws {
    let transport = ReplayTransport(ok(#"{"oobCodes":[]}"#))
    let mailbox = try FirebaseEmulatorMailbox(project: emulatorProject, transport: transport)
    #expect(try await mailbox.messages().isEmpty)
    #expect(
      transport.requests
        == [
          HTTPRequest(
            method: "GET",
            url: "http://127.0.0.1:9099/emulator/v1/projects/demo-project/oobCodes",
            headers: [HTTPRequest.Header("Accept", "application/json")], body: nil)
        ])
  }

  private var resetAnswer: ReplayTransport.Reply {
    ok(
      #"{"kind":"identitytoolkit#ResetPasswordResponse","requestType":"PASSWORD_RESET","#
        + #""email":"test@example.com"}"#)
  }

  private var updateAnswer: ReplayTransport.Reply {
    ok(
      #"{"kind":"identitytoolkit#SetAccountInfoResponse","localId":"uid-1","#
        + #""emailVerified":true,"email":"test@example.com"}"#)
  }
}
