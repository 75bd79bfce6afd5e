import AuthCrypto
import Clocks
import GoTrue
import GoTrueEngine
import SavedSessions
import Testing

@testable import AuthShell

/// The shell's `mail` lists text messages beside the emails, in the order sent.
@MainActor
struct MailSMSShellTests {
  @Test func mailListsTextMessagesBesideTheEmails() async throws {
    let clock = AdjustableClock(fixedAt: ShellBackend.fixedEpoch)
    var configuration = EngineConfiguration()
    configuration.hashCost = Bcrypt.minimumCost
    configuration.phoneProvider = true
    let engine = try EmbeddedGoTrue(
      location: .memory, configuration: configuration, clock: clock, random: SeededRandom(seed: 1))
    try await engine.recover(email: "test@example.com")
    _ = try await engine.sendSignInCode(phone: "+15555550100", createUser: true, data: [:])
    let text = try #require(engine.smsOutbox.messages.first)
    let backend = ShellBackend.embedded(
      engine: engine, clock: clock, random: SeededRandom(seed: 1), sessions: MemorySessionStore())
    let session = ShellSession(backend: backend, style: .script)
    var output = ""
    let sink = ShellOutput { _, bytes in output += String(decoding: bytes, as: UTF8.self) }
    let status = await ShellRunner(
      session: session, source: StringLineSource(["mail"]), output: sink, options: .init()
    ).run()
    #expect(status == 0)
    #expect(output.contains("#1 2025-01-01T00:00:00Z to test@example.com: Reset your password"))
    #expect(
      output.contains("#2 2025-01-01T00:00:00Z to +15555550100: SMS code\n    code \(text.code)"))
    let mailbox = try #require(backend.mailbox)
    #expect(try await mailbox.newest(to: "+15555550100", type: "sms")?.id == "2")
    #expect(try await mailbox.newest(to: "+15555550100", type: "recovery") == nil)
    #expect(try await mailbox.newest(to: "test@example.com", type: "reauthentication") == nil)
  }
}
