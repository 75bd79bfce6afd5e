import AuthCrypto
import AuthFlowGoTrue
import Clocks
import Foundation
import PrivateFiles
import SavedSessions
import Testing

@testable import AccountStore
@testable import AuthShell
@testable import GoTrueEngine

/// Whole sessions through injected lines and captured output.
@MainActor
struct SessionTranscriptTests {
  @Test func aScriptPrintsWhatChanged() async throws {
    let run = try await runShell([
      "signin", "set email test@example.com", "set password nope", "submit", "submit",
      "set password TestPassword123!", "submit", "expect signed-in test@example.com", "signout",
    ])
    #expect(
      run.output == """
        → Sign In
        ✗ That email or password looks incorrect
        ✗ That email or password looks incorrect
        ✓ Signed in as test@example.com
        → Welcome
        ✓ Signed out

        """)
    #expect(run.errors == "")
    #expect(run.status == 0)
  }

  @Test func mistakesGoToStandardErrorWithTheirLineAndExitOne() async throws {
    let run = try await runShell([
      "# a comment", "", "sigin", "signin", "forgot; bogus; back", "set otp 123456",
      "set password \"unbalanced", "show",
    ])
    #expect(
      run.errors == """
        line 3: unknown command 'sigin'; did you mean 'signin'? Type help for the list
        line 5 (command 2): unknown command (not repeated, in case it was a secret); type help for the list
        line 6: the choice screen has no otp field; open a form first: signin or create
        line 7: unbalanced double quote; close it, or escape it with a backslash

        """)
    #expect(run.output.hasPrefix("→ Sign In\n→ Forgot Password\n→ Welcome\nWelcome\n"))
    #expect(run.status == 1)
    #expect(!run.errors.contains("unbalanced\""))
  }

  @Test func bailStopsAtTheFirstFailure() async throws {
    var options = ShellRunner.Options()
    options.bail = true
    let run = try await runShell(["signin", "expect state signup", "back"], options: options)
    #expect(run.output == "→ Sign In\n")
    #expect(run.errors == "line 2: expected state signup, got login\n")
    #expect(run.status == 1)
  }

  /// A line's commands run at once until one waits for the backend; the rest of the line runs
  /// after its answer, and a failure stops a bailing run there, on either path.
  @Test func bailStopsWithinALineWhetherOrNotAnEarlierCommandWaited() async throws {
    var options = ShellRunner.Options()
    options.bail = true
    let waited = try await runShell(
      [
        "signin; set email test@example.com; set password Wrong12345!; submit; expect signed-in;"
          + " back",
        "show",
      ], options: options)
    #expect(waited.output == "→ Sign In\n✗ That email or password looks incorrect\n")
    #expect(waited.errors == "line 1 (command 5): expected signed in, got signed out\n")
    #expect(waited.status == 1)

    let atOnce = try await runShell(
      ["signin; expect state signup; back", "show"], options: options)
    #expect(atOnce.output == "→ Sign In\n")
    #expect(atOnce.errors == "line 1 (command 2): expected state signup, got login\n")
    #expect(atOnce.status == 1)
  }

  @Test func failedExpectationsNameWhatWasFoundButNoSecret() async throws {
    let run = try await runShell([
      "create", "set password Secret123", "expect field password Other999",
      "expect field confirm x", "expect field email a@b.co", "expect consent on",
      "expect pending-email a@b.co", "expect error Boom", "expect banner Hi",
      "expect signed-in", "expect can-submit yes", "back", "expect consent off",
    ])
    #expect(
      run.errors == """
        line 3: expected the password field to hold the given value; it does not
        line 4: expected the confirm field to hold the given value; it does not (it is empty)
        line 5: expected field email "a@b.co", got ""
        line 6: expected consent on, got off
        line 7: expected pending-email a@b.co, but the screen is signup
        line 8: expected error "Boom", got no error
        line 9: expected banner "Hi", got no banner
        line 10: expected signed in, got signed out
        line 11: expected can-submit yes, got no (email is empty)
        line 13: expected consent off, but the screen is choice, which has no consent

        """)
    #expect(!run.errors.contains("Secret123"))
  }

  @Test func echoShowsPromptsAndMasksSecrets() async throws {
    var options = ShellRunner.Options()
    options.echo = true
    let run = try await runShell(
      [
        "# login", "signin", "set password 'Top Secret1'", "expect field password 'Top Secret1'",
        "set email a@b.co",
      ],
      options: options)
    #expect(
      run.output == """
        # login
        choice> signin
        → Sign In
        login> set password ••••••••
        login> expect field password ••••••••
        login> set email a@b.co

        """)
  }

  @Test func jsonPrintsOneObjectPerCommandWithSecretsMasked() async throws {
    var options = ShellRunner.Options()
    options.json = true
    let run = try await runShell(
      ["signin", "set password Hunter22", "submit", "bogus"], options: options)
    let objects = run.output.split(separator: "\n").map { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
    }
    #expect(objects.count == 4)
    #expect(objects[0]["state"] as? String == "login")
    #expect(objects[0]["output"] as? [String] == ["→ Sign In"])
    #expect(objects[1]["command"] as? String == "set password ••••••••")
    #expect((objects[1]["fields"] as? [String: String])?["password"] == "••••••••")
    #expect(objects[2]["error"] as? String == "Email is required")
    #expect(objects[2]["can_submit"] as? Bool == false)
    #expect(objects[2]["signed_in"] is NSNull)
    #expect(objects[3]["ok"] as? Bool == false)
    #expect((objects[3]["problem"] as? String)?.hasPrefix("unknown command (not repeated") == true)
    #expect(!run.output.contains("Hunter22"))
    #expect(run.errors.contains("line 4: unknown command"))
  }

  @Test func scriptsKeepNoHistoryButInteractiveLinesAreMaskedBeforeTheyAreKept() async throws {
    // The runner hands masked lines to the source; a terminal source saves them.
    let lines = [
      "signin", "set password Hunter22", "set password \"half open", "expect field otp 123456",
    ]
    let masked = lines.map { LineParser.parse($0[...]).display }
    #expect(
      masked == [
        "signin", "set password ••••••••", "set password ••••••••", "expect field otp ••••••••",
      ])
    #expect(
      LineParser.parse("open authflow://auth/reset?token=123456&type=recovery&email=a@b.co")
        .display == "open authflow://auth/reset?••••••••")
    #expect(
      LineParser.parse("signin; set confirm x1; back").display
        == "signin; set confirm ••••••••; back")
  }

  @Test func aMaskFromHistoryIsNotAPassword() async throws {
    let run = try await runShell(["signin", "set password ••••••••"])
    #expect(run.errors.hasPrefix("line 2: that password is a mask from history or an echo"))
    #expect(run.status == 1)
  }

  @Test func secretsNeedAValueInScripts() async throws {
    let run = try await runShell(["signin", "set password", "set email"])
    #expect(
      run.errors == """
        line 2: set password needs a value; interactive sessions ask for it unseen; scripts write set password <value>
        line 3: set email needs a value; usage: set email <value>

        """)
  }

  @Test func outboxCommands() async throws {
    let run = try await runShell([
      "mail", "mail code", "signin", "mail open", "forgot", "set email nobody@example.com", "send",
      "mail code", "back", "create", "set email new@example.com", "set password Password1",
      "set confirm Password1", "consent on", "submit", "mail", "mail open", "open not-a-link",
      "open authflow://auth/verify?token=1&type=magiclink&email=a@b.co",
    ])
    #expect(
      run.errors == """
        line 2: mail code fills the reset code on the reset-verify screen; forgot, then send, to get one; confirmation emails are opened with mail open
        line 4: mail open needs an email; set email <address> first
        line 8: no reset code has been sent to nobody@example.com; mail lists the outbox
        line 18: not an authentication link; expected <scheme>://auth/verify?token=…&type=signup&email=…
        line 19: the link type 'magiclink' is not supported; use type=signup or type=recovery

        """)
    #expect(run.output.contains("The outbox is empty."))
    #expect(run.output.contains("#1 2025-01-01T00:00:00Z to new@example.com: Confirm your signup"))
    #expect(run.output.contains("[success] Your email is confirmed. Sign in to continue."))
  }

  @Test func helpComesFromTheTable() async throws {
    let run = try await runShell(["help", "help consent", "help nope", "signin", "help"])
    #expect(run.output.hasPrefix("Buttons of this screen (choice):\n  signin"))
    #expect(
      run.output.contains(
        "usage: consent on|off\n  accept or withdraw the terms\n  where: on the signup screen, signed out"
      ))
    #expect(run.output.contains("Buttons of this screen (login):"))
    #expect(run.output.contains("Fields of this screen: email, password"))
    #expect(run.output.contains("This backend (embedded):\n  mail [code|open]"))
    #expect(run.errors == "line 3: no command named that; did you mean 'open'?\n")
  }

  @Test func versionWorksAnywhereAndIsInHelpAndCompletion() async throws {
    let run = try await runShell(["version", "signin", "version", "help version", "version now"])
    #expect(
      run.output == """
        authflow \(AuthflowMain.version) · embedded backend
        → Sign In
        authflow \(AuthflowMain.version) · embedded backend
        usage: version
          show authflow's version and backend
          where: anywhere

        """)
    #expect(run.errors == "line 5: version takes no arguments; usage: version\n")
    let context = ShellContext(
      screen: .choice, fields: [], signedIn: false, features: [], backend: .embedded)
    #expect(Completion.candidates(for: "ver", in: context) == ["version"])
  }

  @Test func clockAdvanceIsCappedAndOnlyMovesAThrowAwayStore() async throws {
    let run = try await runShell(["clock advance 3651d", "clock advance 999999999999d"])
    #expect(
      run.errors == """
        line 1: clock takes a duration such as 90s, 15m, 25h or 1h30m, up to 3650d; usage: clock advance <duration>
        line 2: clock takes a duration such as 90s, 15m, 25h or 1h30m, up to 3650d; usage: clock advance <duration>

        """)
    let context = ShellContext(
      screen: .choice, fields: [], signedIn: false, features: [.outbox], backend: .embedded)
    let invocation = try LineParser.parse(words: ["clock", "advance", "1h"]).get()
    let refusal = invocation.spec.availability.refusal(
      signedIn: false, screen: .choice, fields: [], features: context.features, field: nil)
    #expect(
      refusal?.error(command: invocation.spec.name, in: context)
        == .notOnThisBackend(command: "clock", feature: .clock, backend: .embedded))
    #expect(
      ShellError.notOnThisBackend(command: "clock", feature: .clock, backend: .embedded).text
        == "'clock' needs a store of its own: time travelled here must not reach a store other processes share; run with --store :memory:"
    )
  }

  @Test func aStoreThatCannotBeWrittenFailsTheScriptAndSaysWhy() async throws {
    let clock = AdjustableClock(fixedAt: ShellBackend.fixedEpoch)
    let engine = try EmbeddedGoTrue(
      location: .memory, configuration: .init(), clock: clock, random: SeededRandom(seed: 1))
    try engine.store.withAccounts {
      (accounts: Accounts<AccountStoreError>) throws(AccountStoreError) in
      try accounts.execute("PRAGMA query_only = 1")
    }
    let backend = ShellBackend.embedded(
      engine: engine, clock: clock, random: SeededRandom(seed: 1), sessions: MemorySessionStore())
    let session = ShellSession(backend: backend, style: .script)
    var errors = ""
    var output = ""
    let sink = ShellOutput { stream, bytes in
      if stream == .standardError {
        errors += String(decoding: bytes, as: UTF8.self)
      } else {
        output += String(decoding: bytes, as: UTF8.self)
      }
    }
    let status = await ShellRunner(
      session: session,
      source: StringLineSource([
        "signin", "set email test@example.com", "set password TestPassword123!", "submit",
      ]), output: sink, options: .init()
    ).run()
    #expect(status == 1)
    #expect(
      output.hasSuffix(
        "✗ The account store is read-only, so nothing can be saved. Check its permissions and disk.\n"
      ))
    #expect(
      errors == "line 4: the account store is read-only, so nothing this run does can be saved\n")
  }

  @Test func autofillNeedsASavedPassword() async throws {
    let run = try await runShell(["signin", "autofill"])
    #expect(
      run.errors.hasPrefix("line 2: no saved password; creating an account in this session"))
  }

  @Test func signedInCommands() async throws {
    let run = try await runShell([
      "signin", "set email test@example.com", "set password TestPassword123!", "submit",
      "whoami", "refresh", "token", "show", "network offline", "refresh", "network online",
      "signout", "whoami",
    ])
    #expect(run.output.contains("test@example.com\n  user id: "))
    #expect(run.output.contains("✓ Session refreshed"))
    #expect(run.output.contains("  signature: ••••••••"))
    #expect(run.output.contains("[warning] You're offline. Try again once you're connected."))
    #expect(
      run.errors == "line 13: 'whoami' needs a signed-in user; sign in first: signin, then submit\n"
    )
  }

  @Test func quitEndsTheScript() async throws {
    let run = try await runShell(["signin", "quit", "back"])
    #expect(run.output == "→ Sign In\n")
    #expect(run.status == 0)
  }

  @Test func eventsAreBounded() async throws {
    let lines = Array(repeating: "signin; back", count: 400) + ["events"]
    let run = try await runShell(lines)
    let listed = run.output.split(separator: "\n").filter { $0.first?.isNumber == true }
    #expect(listed.count == 500)
    #expect(listed.first?.hasPrefix("302. ") == true)
    #expect(listed.last?.hasPrefix("801. ") == true)
  }
}
