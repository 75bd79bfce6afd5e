import Clocks
import GoTrue
import TestSupport
import Testing

@testable import GoTrueEngine

/// Fixed emailed codes for tests (`--test-otp`): the same code every time, each single use.
struct TestCodeTests {
  let clock = AdjustableClock(fixedAt: testEpoch)

  private func engine() throws -> EmbeddedGoTrue {
    try makeEngine(clock: clock) { $0.testCodes = ["test@example.com": "123456"] }
  }

  @Test func theAddressGetsItsFixedCodeEachTimeAndEachIsSingleUse() async throws {
    let engine = try engine()
    try await engine.recover(email: "Test@Example.com")
    #expect(engine.outbox.newest(to: "test@example.com")?.code == "123456")
    _ = try await engine.verify(type: .recovery, email: "test@example.com", token: "123456")
    let reused = await failure {
      try await engine.verify(type: .recovery, email: "test@example.com", token: "123456")
    }
    #expect(reused?.apiError?.code == .otpAlreadyUsed)

    clock.advance(by: 61)
    try await engine.recover(email: "test@example.com")
    #expect(engine.outbox.newest(to: "test@example.com")?.code == "123456")
    _ = try await engine.verify(type: .recovery, email: "test@example.com", token: "123456")
  }

  @Test func aUsedFixedCodeOfOneKindDoesNotHideTheNextOfAnother() async throws {
    let engine = try makeEngine(clock: clock) { $0.testCodes = ["ada@example.com": "123456"] }
    _ = try await engine.signUp(email: "ada@example.com", password: "Password123", data: [:])
    _ = try await engine.verify(type: .signup, email: "ada@example.com", token: "123456")
    clock.advance(by: 61)
    try await engine.sendSignInCode(
      email: "ada@example.com", createUser: false, data: [:], redirectTo: nil)
    #expect(engine.outbox.newest(to: "ada@example.com")?.code == "123456")
    // `email` looks at confirmation codes first: the used one must not hide the sign-in code.
    _ = try await engine.verify(type: .email, email: "ada@example.com", token: "123456")
    let again = await failure {
      try await engine.verify(type: .email, email: "ada@example.com", token: "123456")
    }
    #expect(again?.apiError?.code == .otpAlreadyUsed)
  }

  @Test func theFixedCodesLinkWorksOnce() async throws {
    let engine = try engine()
    try await engine.recover(email: "test@example.com")
    let tokenHash = engine.linkToken(email: "test@example.com", code: "123456")
    _ = try await engine.verify(type: .recovery, tokenHash: tokenHash)
    let reused = await failure { try await engine.verify(type: .recovery, tokenHash: tokenHash) }
    #expect(reused != nil)
  }

  @Test func otherAddressesGetTheRandomCodeTheyWouldHaveHad() async throws {
    let fixed = try engine()
    let plain = try makeEngine(clock: AdjustableClock(fixedAt: testEpoch))
    for engine in [fixed, plain] {
      try await engine.recover(email: "test@example.com")
      try await engine.recover(email: "unverified@example.com")
    }
    let other = try #require(fixed.outbox.newest(to: "unverified@example.com")?.code)
    #expect(other == plain.outbox.newest(to: "unverified@example.com")?.code)
    #expect(other != "123456")
    #expect(plain.outbox.newest(to: "test@example.com")?.code != "123456")
  }
}
