import Clocks
import Foundation
import GoTrue
import TestSupport
import Testing

@testable import GoTrueEngine

/// Metadata go into every token, and a token longer than a request header may carry would lock
/// its user out: such metadata are refused when written, and nothing of the write is kept.
struct TokenSizeTests {
  /// `count` bytes of metadata in one value.
  private func metadata(_ count: Int) -> [String: JSONValue] {
    ["blob": .string(String(repeating: "x", count: count))]
  }

  @Test(.readsSQLiteTables) func aSignUpWhoseDataWouldMakeATooLongTokenIsRefusedAndNotKept()
    async throws
  {
    let engine = try makeEngine { $0.autoconfirm = true }
    let refused = await failure {
      try await engine.signUp(
        email: "big@example.com", password: "secret123", data: metadata(20_000))
    }
    #expect(refused?.apiError?.status == 400)
    #expect(refused?.apiError?.code == .validationFailed)
    let message = refused?.apiError?.message ?? ""
    #expect(message.hasPrefix("user_metadata and app_metadata are too large: "))
    #expect(message.contains("over the 8192 a request header may carry"))
    #expect(
      try engine.rows("SELECT count(*) FROM users WHERE email = 'big@example.com'")[0][0] == "0")
    // A few kilobytes are fine, and the token stays under the bound.
    let response = try await engine.signUp(
      email: "ok@example.com", password: "secret123", data: metadata(4_000))
    guard case .session(let session) = response else {
      Issue.record("expected a session")
      return
    }
    #expect(session.accessToken.utf8.count <= engine.configuration.maximumTokenBytes)
    #expect(session.accessToken.utf8.count > 5_000)
  }

  @Test func anUpdateThatWouldOverflowTheTokenLeavesTheUserAsTheyWere() async throws {
    let engine = try makeEngine()
    let session = try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
    let before = try await engine.user(accessToken: session.accessToken).userMetadata
    let refused = await failure {
      try await engine.updateUser(
        GoTrueUserAttributes(password: "BrandNew123", data: metadata(9_000)),
        accessToken: session.accessToken)
    }
    #expect(refused?.apiError?.code == .validationFailed)
    #expect(try await engine.user(accessToken: session.accessToken).userMetadata == before)
    _ = try await engine.signIn(email: "test@example.com", password: "TestPassword123!")

    let admin = await failure {
      try await engine.updateUser(
        id: session.user.id, GoTrueAdminUserAttributes(appMetadata: metadata(9_000)))
    }
    #expect(admin?.apiError?.code == .validationFailed)
    #expect(try await engine.user(accessToken: session.accessToken).appMetadata["blob"] == nil)
    let created = await failure {
      try await engine.createUser(
        GoTrueAdminUserAttributes(email: "c@example.com", userMetadata: metadata(9_000)))
    }
    #expect(created?.apiError?.code == .validationFailed)
  }
}
