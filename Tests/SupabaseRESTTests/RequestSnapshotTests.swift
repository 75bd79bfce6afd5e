import AuthFlowGoTrue
import Foundation
import GoTrue
import HTTPClient
import SupabaseREST
import TestSupport
import Testing

/// Every call's method, URL, headers and JSON body, against a checked-in text (supabase-swift's
/// request snapshots, in plain text). `UPDATE_SNAPSHOTS=1 swift test` rewrites them.
struct RequestSnapshotTests {
  private func check(
    _ name: String, replies: ReplayTransport.Reply...,
    call: (SupabaseGoTrueClient) async throws -> Void
  ) async throws {
    let transport = ReplayTransport()
    for reply in replies { transport.then(reply) }
    try await call(SupabaseGoTrueClient(project: testProject, transport: transport))
    let request = try #require(transport.requests.first)
    try expectSnapshot(
      of: request, named: name, in: testFolder.appendingPathComponent("Requests"))
  }

  @Test func signUp() async throws {
    try await check("signUp", replies: reply(200, "user-unconfirmed.json")) { client in
      _ = try await client.signUp(
        email: "newuser@example.com", password: "Password123!",
        data: ["first_name": .string("Ada"), "last_name": .string("Lovelace")])
    }
  }

  /// supabase-swift's `emailRedirectTo` (and `redirectTo`): `redirect_to` in the query.
  @Test func signUpAndRecoverWithARedirectIntoTheApp() async throws {
    try await check("signUpWithRedirect", replies: reply(200, "user-unconfirmed.json")) { client in
      _ = try await client.signUp(
        email: "newuser@example.com", password: "Password123!", data: [:],
        redirectTo: "volvoxsober://auth/verify")
    }
    try await check(
      "recoverWithRedirect", replies: .response(HTTPResponse(status: 200, body: Data("{}".utf8)))
    ) {
      try await $0.recover(
        email: "test@example.com", redirectTo: "volvoxsober://auth/forgot-password")
    }
    try await check(
      "resendWithRedirect", replies: .response(HTTPResponse(status: 200, body: Data("{}".utf8)))
    ) {
      try await $0.resend(
        type: .signup, email: "newuser@example.com", redirectTo: "volvoxsober://auth/verify")
    }
  }

  @Test func signUpWithoutData() async throws {
    try await check("signUpWithoutData", replies: reply(200, "user-unconfirmed.json")) { client in
      _ = try await client.signUp(email: "newuser@example.com", password: "Password123!", data: [:])
    }
  }

  @Test func signInWithPassword() async throws {
    try await check("signInWithPassword", replies: reply(200, "session.json")) { client in
      _ = try await client.signIn(email: "test@example.com", password: "TestPassword123!")
    }
  }

  @Test func refreshSession() async throws {
    try await check("refreshSession", replies: reply(200, "session-refreshed.json")) { client in
      _ = try await client.refresh(refreshToken: "v2nR0d7kQ1xZ")
    }
  }

  @Test func recover() async throws {
    try await check("recover", replies: .response(HTTPResponse(status: 200, body: Data("{}".utf8))))
    {
      try await $0.recover(email: "test@example.com")
    }
  }

  @Test func verifyRecovery() async throws {
    try await check("verifyRecovery", replies: reply(200, "session.json")) {
      _ = try await $0.verify(type: .recovery, email: "test@example.com", token: "123456")
    }
  }

  @Test func resendSignup() async throws {
    try await check(
      "resendSignup", replies: .response(HTTPResponse(status: 200, body: Data("{}".utf8)))
    ) {
      try await $0.resend(type: .signup, email: "newuser@example.com")
    }
  }

  @Test func updatePasswordWithNonce() async throws {
    try await check("updatePasswordWithNonce", replies: reply(200, "user.json")) {
      _ = try await $0.updatePassword(
        "BrandNew123", accessToken: "user-access-token", nonce: "123456")
    }
  }

  @Test func reauthenticate() async throws {
    try await check(
      "reauthenticate", replies: .response(HTTPResponse(status: 200, body: Data("{}".utf8)))
    ) {
      try await $0.reauthenticate(accessToken: "user-access-token")
    }
  }

  @Test func updatePassword() async throws {
    try await check("updatePassword", replies: reply(200, "user.json")) {
      _ = try await $0.updatePassword("BrandNew123", accessToken: "user-access-token")
    }
  }

  @Test func logout() async throws {
    try await check("logout", replies: .response(HTTPResponse(status: 204))) {
      try await $0.logout(accessToken: "user-access-token", scope: .local)
    }
  }

  @Test func user() async throws {
    try await check("user", replies: reply(200, "user.json")) {
      _ = try await $0.user(accessToken: "user-access-token")
    }
  }
}
