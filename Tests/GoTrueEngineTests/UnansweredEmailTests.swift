import Clocks
import Foundation
import GoTrue
import Synchronization
import TestSupport
import Testing

@testable import GoTrueEngine

/// The routes that must not tell who has an account answer alike with a send-email hook: the
/// hook neither times nor fails their answer.
struct UnansweredEmailTests {
  static let refusal = GoTrueAPIError(status: 500, code: .hookTimeout, message: "hook down")

  @Test func recoverAnswersAlikeForEveryAddressWhileTheHookFails() async throws {
    let hooks = ScriptedHooks([.sendEmail: { _ throws(GoTrueAPIError) in throw Self.refusal }])
    let engine = try makeEngine(hooks: hooks)
    try await engine.recover(email: "test@example.com")
    try await engine.recover(email: "nobody@example.com")
    await engine.waitForUnansweredSends()
    #expect(hooks.calls.count == 1, "only the account's email went to the hook")
    #expect(hooks.reports.map(\.failure) == [Self.refusal], "the failure is told, not answered")
    #expect(engine.outbox.messages.isEmpty, "an email the hook did not send is not kept")
  }

  @Test func resendAndSignUpAnswerAlikeWhileTheHookFails() async throws {
    let hooks = ScriptedHooks([.sendEmail: { _ throws(GoTrueAPIError) in throw Self.refusal }])
    let engine = try makeEngine(hooks: hooks)
    try await engine.resend(type: .signup, email: "unverified@example.com")
    try await engine.resend(type: .signup, email: "nobody@example.com")
    let new = try await engine.signUp(email: "new@example.com", password: "Password123", data: [:])
    let taken = try await engine.signUp(
      email: "test@example.com", password: "Password123", data: [:])
    guard case .user = new, case .user = taken else {
      Issue.record("both sign-ups answer a user waiting for confirmation")
      return
    }
    await engine.waitForUnansweredSends()
    #expect(hooks.reports.count == 2)
  }

  @Test(.timeLimit(.minutes(1)))
  func recoverAnswersBeforeTheHookHasSentTheEmail() async throws {
    let gate = Gate()
    let hooks = ScriptedHooks([
      .sendEmail: { _ throws(GoTrueAPIError) in
        gate.waitBlocking()
        return [:]
      }
    ])
    let engine = try makeEngine(hooks: hooks)
    // With the hook in the answer's time, this would wait for the gate, which opens only
    // after it: the test would not end.
    try await engine.recover(email: "test@example.com")
    #expect(engine.outbox.newest(to: "test@example.com") == nil)
    gate.open()
    await engine.waitForUnansweredSends()
    let sent = try #require(engine.outbox.newest(to: "test@example.com"))
    #expect(sent.handedToHook)
  }

  @Test func aSecondEmailChangeResendIsRefusedAlikeWhetherOrNotAChangeWaits() async throws {
    let clock = AdjustableClock(fixedAt: testEpoch)
    let engine = try makeEngine(clock: clock)
    let session = try await engine.signIn(email: "test@example.com", password: "TestPassword123!")
    _ = try await engine.updateUser(
      GoTrueUserAttributes(email: "moved@example.com"), accessToken: session.accessToken)
    // Past the interval of the change's own emails.
    clock.advance(by: 61)
    var answers: [String: [Int]] = [:]
    for email in ["test@example.com", "unverified@example.com", "nobody@example.com"] {
      for _ in 0..<2 {
        let refused = await failure { try await engine.resend(type: .emailChange, email: email) }
        answers[email, default: []].append(refused?.apiError?.status ?? 200)
      }
    }
    #expect(answers["test@example.com"] == [200, 429])
    #expect(answers["unverified@example.com"] == [200, 429])
    #expect(answers["nobody@example.com"] == [200, 429])
    #expect(engine.outbox.messages.filter { $0.recipient == "moved@example.com" }.count == 2)
    #expect(engine.outbox.messages.filter { $0.recipient == "nobody@example.com" }.isEmpty)
  }
}

/// A gate a hook's thread waits at until the test opens it.
final class Gate: Sendable {
  private let opened = Mutex(false)

  func open() { opened.withLock { $0 = true } }

  /// Waits (polling, a millisecond at a time, for at most a minute) until the gate is open.
  func waitBlocking() {
    for _ in 0..<60_000 where !opened.withLock({ $0 }) { usleep(1_000) }
  }
}
