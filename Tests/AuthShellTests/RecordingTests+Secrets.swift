import AuthCrypto
import AuthFlow
import Foundation
import GoTrueEngine
import Testing

@testable import AuthShell

/// A recording holds no secret: passwords and codes typed at the prompt become the
/// environment's variables, in the file, its transcript and the history alike.
extension RecordingTests {
  @Test func secretsNeverReachTheFileTheTranscriptOrTheHistory() async throws {
    let path = folder + "/reset.authflow"
    let secrets = ["Wrong1234", "Analytical1", "BrandNew123"]
    var code = ""
    let run = try await run { session in
      [
        // An account made before the recording began.
        { "create" }, { "set email ada@example.com" }, { "set password Analytical1" },
        { "set confirm Analytical1" }, { "consent on" }, { "submit" }, { "mail open" },
        { "back" },
        { "record \(path) --transcript" }, { "signin" }, { "set email ada@example.com" },
        { "set password Wrong1234" }, { "submit" }, { "clock advance 2m" }, { "forgot" },
        { "send" },
        // The code is read from the outbox, as a person reads the email, and typed.
        {
          code = Self.newestCode(session, to: "ada@example.com")
          return "set code \(code)"
        },
        { "set password BrandNew123" }, { "verify" }, { "set password BrandNew123" },
        { "submit" }, { "expect signed-in ada@example.com" }, { "record stop" },
      ]
    }
    #expect(run.status == 0, "\(run.errors)")
    #expect(code.count == 6)

    let recorded = file("reset.authflow")
    let transcript = file("reset.transcript")
    // The typed code became the outbox's (mail code); the account made before the recording is
    // made first, so it replays; each password is read from the environment.
    #expect(
      recorded == """
        #!/usr/bin/env -S authflow --backend embedded --store :memory:
        # Recorded with authflow \(AuthflowMain.version) on 2026-11-22, on the embedded backend.
        # Secrets are not kept here: give them in the environment to run it.
        #   ADA_WRONG_PASSWORD  a wrong password for ada@example.com: one the sign-in refuses
        #   ADA_PASSWORD        a password for ada@example.com (any the sign-up accepts: the replay makes the account)
        #   ADA_NEW_PASSWORD    the new password the reset set for ada@example.com

        # ada@example.com was made before the recording began (confirmed):
        create
        set email ada@example.com
        set password $ADA_PASSWORD
        set confirm $ADA_PASSWORD
        consent on
        submit
        mail open
        back

        # The exploration.
        signin
        expect state login
        set email ada@example.com
        set password $ADA_WRONG_PASSWORD
        expect can-submit yes
        submit
        expect error "That email or password looks incorrect"
        clock advance 2m
        forgot
        expect state reset-request
        send
        expect state reset-verify
        expect banner "If an account exists for that email, we've sent it a 6-digit code. It expires in 24 hours."
        mail code
        set password $ADA_NEW_PASSWORD
        expect can-submit yes
        verify
        expect state login
        expect banner "Your password has been updated. Sign in with your new password."
        set password $ADA_NEW_PASSWORD
        expect can-submit yes
        submit
        expect signed-in ada@example.com

        """)
    #expect(!transcript.isEmpty, "--transcript saved the replay's")
    for secret in secrets + [code] {
      #expect(!recorded.contains(secret), "the file holds \(secret)")
      #expect(!transcript.contains(secret), "the transcript holds \(secret)")
      #expect(!run.history.contains { $0.contains(secret) })
    }
    let replay = try runAuthflow(
      [path],
      environment: [
        "ADA_PASSWORD": "Analytical1", "ADA_NEW_PASSWORD": "BrandNew123",
        "ADA_WRONG_PASSWORD": "Wrong1234",
      ])
    #expect(replay.status == 0, "\(replay.error)")
  }

  /// A code is a secret in a recording too: one typed that is not the one sent is read from
  /// the environment, never written.
  @Test func aWrongCodeIsReadFromTheEnvironmentNotWritten() async throws {
    let path = folder + "/wrong-code.authflow"
    var wrong = ""
    let run = try await run { session in
      [
        { "record \(path)" }, { "signin" }, { "set email test@example.com" }, { "forgot" },
        { "send" },
        {
          wrong = Self.newestCode(session, to: "test@example.com") == "314159" ? "271828" : "314159"
          return "set code \(wrong)"
        },
        { "set password BrandNew123" }, { "verify" }, { "record stop" },
      ]
    }
    #expect(run.status == 0, "\(run.errors)")
    let recorded = file("wrong-code.authflow")
    #expect(!recorded.contains(wrong), "\(recorded)")
    #expect(
      recorded == """
        #!/usr/bin/env -S authflow --backend embedded --store :memory:
        # Recorded with authflow \(AuthflowMain.version) on 2026-11-22, on the embedded backend.
        # Secrets are not kept here: give them in the environment to run it.
        #   TEST_WRONG_CODE  a code for test@example.com other than the one the outbox holds: a wrong one
        #   TEST_PASSWORD    the password typed for test@example.com
        signin
        expect state login
        set email test@example.com
        forgot
        expect state reset-request
        send
        expect state reset-verify
        expect banner "If an account exists for that email, we've sent it a 6-digit code. It expires in 24 hours."
        set otp $TEST_WRONG_CODE
        set password $TEST_PASSWORD
        expect can-submit yes
        verify
        expect error "That code is incorrect. Check the latest email and try again."

        """)
    #expect(run.output.contains("TEST_WRONG_CODE=…"), "\(run.output)")
    #expect(run.output.contains("Replayed on a fresh store: it passes."), "\(run.output)")
  }

  @Test func aChangedPasswordIsReadFromTheEnvironmentNotWritten() async throws {
    let path = folder + "/change.authflow"
    let run = try await run([
      "record \(path)", "signin", "set email test@example.com", "set password TestPassword123!",
      "submit", "change-password Changed1234", "record stop",
    ])
    #expect(run.status == 0, "\(run.errors)")
    let recorded = file("change.authflow")
    #expect(!recorded.contains("Changed1234"))
    #expect(recorded.contains("\nchange-password $TEST_"), "\(recorded)")
    #expect(recorded.contains("the new password"), "\(recorded)")
  }

  @Test func aValueFromTheEnvironmentIsRecordedAsItsNameAndStillReplays() async throws {
    let path = folder + "/named.authflow"
    let local = "m" + UUID().uuidString.prefix(8).lowercased()
    let run = try await run(
      [
        "record \(path)", "create", "set email $WHO", "set password Analytical1",
        "set confirm Analytical1", "consent on", "submit", "mail open",
        "set password Analytical1", "submit", "record stop",
      ], environment: ["WHO": local + "@example.com"])
    #expect(run.status == 0, "\(run.errors)")
    let recorded = file("named.authflow")
    for text in [recorded, run.output, run.errors] {
      #expect(!text.lowercased().contains(local), "\(text)")
    }
    // A check cannot compare $WHO: signed-in is written without the address.
    #expect(recorded.contains("\nset email $WHO\n"), "\(recorded)")
    #expect(recorded.contains("\nset password $WHO_PASSWORD\n"), "\(recorded)")
    #expect(recorded.hasSuffix("\nexpect signed-in\n"), "\(recorded)")
    #expect(run.output.contains("Replayed on a fresh store: it passes."), "\(run.output)")
  }
}
