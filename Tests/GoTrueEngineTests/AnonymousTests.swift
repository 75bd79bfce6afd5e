import Clocks
import Foundation
import GoTrue
import TestSupport
import Testing

@testable import GoTrueEngine

/// Anonymous users: signed in with no address, made permanent by confirming one.
struct AnonymousTests {
  let clock = AdjustableClock(fixedAt: testEpoch)

  @Test func anAnonymousSignInHasNoAddressIdentityOrProvider() async throws {
    let engine = try makeEngine(clock: clock) { $0.anonymousSignIns = true }
    let session = try await engine.signUpAnonymously(data: ["theme": .string("dark")])
    let user = session.user
    #expect(user.isAnonymous)
    #expect(user.email == "")
    #expect(user.identities == [])
    #expect(user.appMetadata == [:])
    #expect(user.userMetadata == ["theme": .string("dark")])
    #expect(user.lastSignInAt == testEpoch)
    let claims = try JSONWebToken.verify(session.accessToken, secret: engine.secrets.jwt, now: nil)
    #expect(claims["is_anonymous"] == .bool(true))
    #expect(claims["email"] == .string(""))
    #expect(claims["amr"]?.arrayValue?.first?.objectValue?["method"] == .string("anonymous"))

    // Users without an email are as many as they like: NULL is unique to nobody.
    let second = try await engine.signUpAnonymously(data: [:])
    #expect(second.user.id != user.id)
    let page = try engine.listUsers(page: 1, perPage: 10)
    #expect(page.users.filter(\.isAnonymous).count == 2)
    try engine.deleteUser(id: second.user.id)
    #expect(try engine.accountCount() == 3)
  }

  @Test func closedSignUpsRefuseAnonymousOnesToo() async throws {
    let engine = try makeEngine { $0.disableSignup = true }
    let refused = await failure { try await engine.signUpAnonymously(data: [:]) }
    #expect(refused?.apiError?.code == .signupDisabled)
  }

  @Test func aPasswordAloneDoesNotMakeAnAnonymousUserPermanent() async throws {
    let engine = try makeEngine(clock: clock)
    let session = try await engine.signUpAnonymously(data: [:])
    let refused = await failure {
      try await engine.updateUser(
        GoTrueUserAttributes(password: "secret123"), accessToken: session.accessToken)
    }
    #expect(
      refused?.apiError
        == GoTrueAPIError(
          status: 422, code: .validationFailed,
          message:
            "Updating password of an anonymous user without an email or phone is not allowed"))
  }

  @Test func confirmingAnAddressMakesTheSameUserPermanent() async throws {
    let engine = try makeEngine(clock: clock)
    let session = try await engine.signUpAnonymously(data: [:])
    let pending = try await engine.updateUser(
      GoTrueUserAttributes(email: "ada@example.com", password: "secret123"),
      accessToken: session.accessToken)
    #expect(pending.isAnonymous)
    #expect(pending.newEmail == "ada@example.com")
    // No current address to confirm from: one code, to the new address.
    #expect(engine.outbox.messages.map(\.recipient) == ["ada@example.com"])

    let code = try #require(engine.outbox.newest(to: "ada@example.com")).code
    let confirmed = try await engine.verify(
      type: .emailChange, email: "ada@example.com", token: code)
    #expect(confirmed.user.id == session.user.id)
    #expect(!confirmed.user.isAnonymous)
    #expect(confirmed.user.email == "ada@example.com")
    #expect(confirmed.user.identities?.count == 1)
    #expect(confirmed.user.appMetadata["provider"] == .string("email"))
    let signedIn = try await engine.signIn(email: "ada@example.com", password: "secret123")
    #expect(signedIn.user.id == session.user.id)
  }

  @Test func withAutoconfirmTheAddressAppliesAtOnce() async throws {
    let engine = try makeEngine(clock: clock) { $0.autoconfirm = true }
    let session = try await engine.signUpAnonymously(data: [:])
    let user = try await engine.updateUser(
      GoTrueUserAttributes(email: "ada@example.com"), accessToken: session.accessToken)
    #expect(!user.isAnonymous)
    #expect(user.email == "ada@example.com")
    #expect(user.emailConfirmedAt == testEpoch)
    #expect(engine.outbox.messages.isEmpty)
  }
}
