import Clocks
import Foundation
import GoTrue
import TestSupport
import Testing

@testable import GoTrueEngine

/// GoTrue's request budgets, kept in the store.
struct RateLimitTests {
  let clock = AdjustableClock(fixedAt: testEpoch)

  @Test func signInAttemptsHaveABudgetThatRefills() async throws {
    let engine = try makeEngine(clock: clock) {
      $0.rateLimits.token = EngineConfiguration.Budget(capacity: 3, period: 300)
    }
    for _ in 0..<3 {
      #expect(
        await failure { try await engine.signIn(email: "test@example.com", password: "nope") }?
          .apiError?.code == .invalidCredentials)
    }
    let limited = await failure {
      try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
    }
    #expect(
      limited?.apiError
        == GoTrueAPIError(
          status: 429, code: .overRequestRateLimit, message: "Request rate limit reached"))

    clock.advance(by: 100)  // one request's worth
    _ = try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
    #expect(
      await failure { try await engine.signIn(email: "test@example.com", password: "x") }?.apiError?
        .code == .overRequestRateLimit)
  }

  @Test func verifyAttemptsHaveABudget() async throws {
    let engine = try makeEngine(clock: clock) {
      $0.rateLimits.verify = EngineConfiguration.Budget(capacity: 2, period: 300)
    }
    for _ in 0..<2 {
      _ = await failure {
        try await engine.verify(type: .recovery, email: "test@example.com", token: "111111")
      }
    }
    let limited = await failure {
      try await engine.verify(type: .recovery, email: "test@example.com", token: "111111")
    }
    #expect(limited?.apiError?.code == .overRequestRateLimit)
  }

  /// Thirty wrong codes against one account use up that account's checks, not everyone's: the
  /// other accounts can still reset their passwords.
  @Test(.readsSQLiteTables) func wrongCodesForOneAccountDoNotBlockAnother() async throws {
    let engine = try makeEngine(clock: clock)
    for _ in 0..<30 {
      let wrong = await failure {
        try await engine.verify(type: .recovery, email: "test@example.com", token: "000000")
      }
      #expect(wrong?.apiError?.code == .otpInvalid)
    }
    let blocked = await failure {
      try await engine.verify(type: .recovery, email: "test@example.com", token: "000000")
    }
    #expect(blocked?.apiError?.code == .overRequestRateLimit)

    try await engine.recover(email: "unverified@example.com")
    let code = try #require(engine.outbox.newest(to: "unverified@example.com")).code
    _ = try await engine.verify(type: .recovery, email: "unverified@example.com", token: code)
    #expect(
      try engine.rows("SELECT count(*) FROM rate_limits WHERE bucket LIKE 'verify:%'")[0][0] == "2",
      "one bucket per account, named by a hash")
    #expect(try engine.rows("SELECT bucket FROM rate_limits").allSatisfy { !$0[0].contains("@") })
  }

  /// No budget spans all accounts: one account's checks each, for more accounts than any one
  /// account's budget, are never refused (a store-wide bucket would let one client block
  /// every reset; `authflow serve` limits clients per key instead).
  @Test(.readsSQLiteTables) func checksOfManyAccountsShareNoBudget() async throws {
    let engine = try makeEngine(clock: clock) {
      $0.rateLimits.verify = EngineConfiguration.Budget(capacity: 2, period: 300)
    }
    for index in 0..<40 {
      let unknown = await failure {
        try await engine.verify(type: .recovery, email: "u\(index)@example.com", token: "000000")
      }
      #expect(unknown?.apiError?.code == .otpInvalid)
    }
    #expect(
      try engine.rows("SELECT count(*) FROM rate_limits WHERE bucket NOT LIKE 'verify:%'")[0][0]
        == "0", "no bucket but the accounts' own")
  }

  /// A `PUT /user` that mails nothing (metadata, a password) spends none of the budget of
  /// emailing requests; an email change does.
  @Test func userUpdatesSpendTheEmailBudgetOnlyWhenTheyMail() async throws {
    let engine = try makeEngine(clock: clock) {
      $0.rateLimits.email = EngineConfiguration.Budget(capacity: 1, period: 300)
    }
    let token = try await engine.signIn(
      email: DemoAccounts.confirmed.email, password: DemoAccounts.confirmed.password
    ).accessToken
    for index in 0..<3 {
      _ = try await engine.updateUser(
        GoTrueUserAttributes(data: ["n": .number(Double(index))]), accessToken: token)
    }
    _ = try await engine.updateUser(
      GoTrueUserAttributes(password: "Another-Password-9"), accessToken: token)
    _ = try await engine.updateUser(
      GoTrueUserAttributes(email: DemoAccounts.confirmed.email), accessToken: token)
    _ = try await engine.updateUser(
      GoTrueUserAttributes(email: "new@example.com"), accessToken: token)
    let limited = await failure {
      try await engine.updateUser(
        GoTrueUserAttributes(email: "other@example.com"), accessToken: token)
    }
    #expect(limited?.apiError?.code == .overRequestRateLimit)
  }

  @Test func emailRequestsHaveABudgetAcrossAddresses() async throws {
    let engine = try makeEngine(clock: clock) {
      $0.rateLimits.email = EngineConfiguration.Budget(capacity: 2, period: 300)
    }
    try await engine.recover(email: "a@example.com")
    try await engine.recover(email: "b@example.com")
    let limited = await failure { try await engine.recover(email: "c@example.com") }
    #expect(limited?.apiError?.code == .overRequestRateLimit)
  }

  @Test func budgetsAreSharedThroughTheStore() async throws {
    let folder = makeTemporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/auth.db"
    let configure: (inout EngineConfiguration) -> Void = {
      $0.rateLimits.token = EngineConfiguration.Budget(capacity: 2, period: 300)
    }
    let first = try makeEngine(location: .file(path), clock: clock, configure: configure)
    let second = try makeEngine(location: .file(path), clock: clock, configure: configure)
    _ = await failure { try await first.signIn(email: "test@example.com", password: "x") }
    _ = await failure { try await second.signIn(email: "test@example.com", password: "x") }
    #expect(
      await failure { try await first.signIn(email: "test@example.com", password: "x") }?.apiError?
        .code == .overRequestRateLimit)
  }
}
