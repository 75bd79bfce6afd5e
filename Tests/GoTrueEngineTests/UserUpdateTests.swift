import Clocks
import Foundation
import GoTrue
import TestSupport
import Testing

@testable import GoTrueEngine

/// `PUT /user`: metadata, email changes, what a user may not change.
struct UserUpdateTests {
  let clock = AdjustableClock(fixedAt: testEpoch)

  private func signIn(_ engine: EmbeddedGoTrue) async throws -> GoTrueSession {
    try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
  }

  @Test func dataMergesKeyByKeyAndNullDeletes() async throws {
    let engine = try makeEngine(clock: clock)
    let session = try await signIn(engine)
    _ = try await engine.updateUser(
      GoTrueUserAttributes(data: ["theme": .string("dark"), "lang": .string("en")]),
      accessToken: session.accessToken)
    let user = try await engine.updateUser(
      GoTrueUserAttributes(data: ["lang": .null, "beta": .bool(true)]),
      accessToken: session.accessToken)
    #expect(user.userMetadata["theme"] == .string("dark"))
    #expect(user.userMetadata["lang"] == nil)
    #expect(user.userMetadata["beta"] == .bool(true))
    #expect(user.userMetadata["email"] == .string("test@example.com"), "identity claims stay")
  }

  @Test func usersCannotTouchAppMetadataOrPhones() async throws {
    let engine = try makeEngine(clock: clock)
    let session = try await signIn(engine)
    let admin = await failure {
      try await engine.updateUser(
        GoTrueUserAttributes(appMetadata: ["role": .string("admin")]),
        accessToken: session.accessToken)
    }
    #expect(
      admin?.apiError
        == GoTrueAPIError(
          status: 403, code: .notAdmin, message: "Updating app_metadata requires admin privileges"))
    let phone = await failure {
      try await engine.updateUser(
        GoTrueUserAttributes(phone: "+15555550100"), accessToken: session.accessToken)
    }
    #expect(phone?.apiError?.code == .phoneProviderDisabled)
  }

  @Test func aSecureEmailChangeNeedsBothAddresses() async throws {
    let engine = try makeEngine(clock: clock)
    let session = try await signIn(engine)
    let pending = try await engine.updateUser(
      GoTrueUserAttributes(email: "new@example.com"), accessToken: session.accessToken)
    #expect(pending.email == "test@example.com", "the address changes only once confirmed")
    #expect(pending.newEmail == "new@example.com")
    #expect(pending.emailChangeSentAt == testEpoch)

    let toNew = try #require(engine.outbox.newest(to: "new@example.com"))
    let toOld = try #require(engine.outbox.newest(to: "test@example.com"))
    #expect(toNew.kind == .emailChange && toOld.kind == .emailChange)
    #expect(toNew.text.contains("from test@example.com to new@example.com"))

    let first = try await engine.verifyCode(
      type: .emailChange, email: "new@example.com", code: toNew.code)
    #expect(first == .emailChangePending(message: GoTrueVerifyOutcome.otherAddressMustConfirm))
    guard
      case .session(let changed) = try await engine.verifyCode(
        type: .emailChange, email: "test@example.com", code: toOld.code)
    else {
      Issue.record("expected a session once both addresses confirmed")
      return
    }
    #expect(changed.user.email == "new@example.com")
    #expect(changed.user.newEmail == nil)
    #expect(changed.user.userMetadata["email"] == .string("new@example.com"))
    _ = try await engine.signIn(email: "new@example.com", password: "TestPassword123!")
  }

  @Test func withoutSecureChangeTheNewAddressAloneConfirms() async throws {
    let engine = try makeEngine(clock: clock) { $0.secureEmailChange = false }
    let session = try await signIn(engine)
    _ = try await engine.updateUser(
      GoTrueUserAttributes(email: "new@example.com"), accessToken: session.accessToken)
    #expect(engine.outbox.messages.count == 1)
    let code = try #require(engine.outbox.newest(to: "new@example.com")).code
    let outcome = try await engine.verifyCode(
      type: .emailChange, email: "new@example.com", code: code)
    guard case .session(let changed) = outcome else {
      Issue.record("expected a session")
      return
    }
    #expect(changed.user.email == "new@example.com")
  }

  @Test func anEmailChangeToATakenAddressIsRefused() async throws {
    let engine = try makeEngine(clock: clock)
    let session = try await signIn(engine)
    let taken = await failure {
      try await engine.updateUser(
        GoTrueUserAttributes(email: "unverified@example.com"), accessToken: session.accessToken)
    }
    #expect(taken?.apiError?.code == .emailExists)
    let malformed = await failure {
      try await engine.updateUser(
        GoTrueUserAttributes(email: "not an email"), accessToken: session.accessToken)
    }
    #expect(malformed?.apiError?.code == .validationFailed)
  }

  @Test func aPendingChangeCanBeResent() async throws {
    let engine = try makeEngine(clock: clock)
    let session = try await signIn(engine)
    _ = try await engine.updateUser(
      GoTrueUserAttributes(email: "new@example.com"), accessToken: session.accessToken)
    let first = try #require(engine.outbox.newest(to: "new@example.com")).code
    clock.advance(by: 61)
    try await engine.resend(type: .emailChange, email: "test@example.com", redirectTo: nil)
    let second = try #require(engine.outbox.newest(to: "new@example.com")).code
    #expect(engine.outbox.messages.count == 4)
    let stale = await failure {
      try await engine.verifyCode(type: .emailChange, email: "new@example.com", code: first)
    }
    #expect(first != second)
    #expect(stale?.apiError?.code == .otpInvalid, "a resend replaces the earlier codes")
  }
}
