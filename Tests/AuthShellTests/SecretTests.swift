import AuthFlow
import Foundation
import Testing

@testable import AuthShell

/// Secrets never reach history, `--echo`, `--json` or an error, whatever shape the line has.
@MainActor
struct SecretTests {
  /// Runs `lines` three ways (plain with history, `--echo`, `--json`) and returns everything a
  /// secret could leak into.
  private func everything(_ lines: [String]) async throws -> String {
    var echo = ShellRunner.Options()
    echo.echo = true
    var json = ShellRunner.Options()
    json.json = true
    var all = ""
    for options in [ShellRunner.Options(), echo, json] {
      let run = try await runShell(lines, options: options)
      all += run.output + run.errors + run.history.joined(separator: "\n")
    }
    return all
  }

  @Test(arguments: [
    #"show;set password "Secr3tPass"#,
    #"set password "Secr3tPass"#,
    "set passwrod Secr3tPass",
    "set Password Secr3tPass",
    "set Secr3tPass",
    "Secr3tPass",
    "Secr3tPass now",
    "expect field password Secr3tPass",
    "expect field passwrd Secr3tPass",
    "open authflow://auth/reset?token=Secr3tPass&type=recovery&email=a@b.co",
    "open authflow://auth/reset?token=123456&token=Secr3tPass&type=recovery&email=a@b.co",
    "open authflow://auth/reset?%74oken=Secr3tPass&type=recovery&email=a@b.co",
    "open authflow://auth/reset#token=Secr3tPass",
    "signin; set password Secr3tPass; back",
    // A word the command's grammar does not know is never repeated.
    "help Secr3tPass",
    "? Secr3tPass",
    "network Secr3tPass",
    "clock advance Secr3tPass",
    "clock Secr3tPass 5m",
    "record Secr3tPass now",
    "record stop Secr3tPass",
    "show Secr3tPass",
    "clear Secr3tPass",
    "mail Secr3tPass",
    "consent Secr3tPass",
    "delete-account Secr3tPass",
    "expect Secr3tPass",
  ])
  func aSecretInAnyShapeOfLineIsMasked(line: String) async throws {
    let leaked = try await everything(["signin", line])
    #expect(!leaked.contains("Secr3tPass"), "\(line)")
  }

  @Test func onlyLinesThatParsedAreKeptInHistory() async throws {
    let run = try await runShell([
      "signin", "Hunter22Password", "set email a@b.co", "sigin", "set password x1; bogus",
      "set password \"half", "help Hunter22Password", "help show",
    ])
    #expect(run.history == ["signin", "set email a@b.co", "help show"])
  }

  /// The words of the brief's report: not in the echo, the JSON or the errors, and the errors
  /// still say what was expected.
  @Test func wordsAfterHelpNetworkClockAndRecordAreMasked() throws {
    let run = try runAuthflow([
      "--store", ":memory:", "--echo", "--json", "-c",
      "network hunter2; help s3cr3t; clock advance p4ss; record xq7 yq8; help hlep; help show",
    ])
    #expect(run.status == 1)
    for word in ["hunter2", "s3cr3t", "p4ss", "hlep", "xq7", "yq8"] {
      #expect(!run.output.contains(word) && !run.error.contains(word), "\(word)")
    }
    let commands = run.output.split(separator: "\n").compactMap { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["command"]
        as? String
    }
    #expect(
      commands == [
        "network ••••••••", "help ••••••••", "clock advance ••••••••", "record •••••••• ••••••••",
        "help ••••••••", "help show",
      ])
    #expect(
      run.error == """
        line 1 (command 1): network takes online, offline or unreachable; usage: network online|offline|unreachable
        line 1 (command 2): no command named that; type help for the list
        line 1 (command 3): clock takes a duration such as 90s, 15m, 25h or 1h30m, up to 3650d; usage: clock advance <duration>
        line 1 (command 4): record takes a file to record to (and --transcript), stop, or nothing; usage: record [FILE [--transcript]|stop]
        line 1 (command 5): no command named that; did you mean 'help'?

        """)
    let echoed = try runAuthflow([
      "--store", ":memory:", "--echo", "-c", "network hunter2; help s3cr3t",
    ])
    #expect(echoed.output.hasPrefix("choice> network ••••••••; help ••••••••\n"))
  }

  /// A command's name is shown when it looks like a typo of one; an argument never is (a
  /// close field is offered instead).
  @Test func mistypedCommandsAreNamedOnlyWhenTheyLookLikeTypos() async throws {
    let run = try await runShell([
      "signin", "sigin", "Hunter22Password", "set passwrod x", "set Hunter22Password",
    ])
    #expect(
      run.errors == """
        line 2: unknown command 'sigin'; did you mean 'signin'? Type help for the list
        line 3: unknown command (not repeated, in case it was a secret); type help for the list
        line 4: there is no field named that; did you mean 'password'? Fields: email, password, confirm, otp, first-name, last-name
        line 5: there is no such field (not repeated, in case it was a secret); fields: email, password, confirm, otp, first-name, last-name

        """)
  }

  @Test func aRepeatedLinkParameterIsRefusedNotGuessed() async throws {
    let run = try await runShell([
      "open authflow://auth/reset?token=111111&token=222222&type=recovery&email=a@b.co"
    ])
    #expect(run.errors.hasPrefix("line 1: the link gives its token parameter more than once"))
    #expect(!run.output.contains("Reset Password"))
  }

  @Test func jsonMasksTheOutboxButTheScreenShowsIt() async throws {
    let lines = ["signin", "set email test@example.com", "forgot", "send", "mail"]
    var json = ShellRunner.Options()
    json.json = true
    let machine = try await runShell(lines, options: json)
    let person = try await runShell(lines)
    let code = try #require(
      person.output.split(separator: "\n").first { $0.contains("code ") }?
        .split(separator: " ").dropFirst().first)
    #expect(code.count == 6)
    #expect(!machine.output.contains(String(code)))
    #expect(machine.output.contains("code ••••••••  authflow://auth/forgot-password?••••••••"))
  }

  @Test func typedControlCharactersAreRefused() async throws {
    let run = try await runShell([
      "signin", "set email a\u{1B}[31m@b.co", "set email a\u{7F}b@c.do", "set email a\u{85}b@c.do",
      "set email tab\there@b.co", "show\r",
    ])
    #expect(
      run.errors == """
        line 2: the line contains a control character (escape, backspace, …); commands are text
        line 3: the line contains a control character (escape, backspace, …); commands are text
        line 4: the line contains a control character (escape, backspace, …); commands are text

        """)
    #expect(run.output.contains("Email                     tab"))
  }

  @Test func controlCharactersFromOutsideAreShownAsEscapes() {
    #expect(TerminalText.visible("a\u{1B}[2Jb@c.d") == "a\\u{1B}[2Jb@c.d")
    #expect(TerminalText.visible("plain@b.co") == "plain@b.co")
    var state = AuthFlowState()
    state.session = AuthSession(
      user: AuthUser(id: "id\u{7}", email: "a\u{1B}]0;owned\u{7}@b.co"), accessToken: "a",
      refreshToken: "r", expiresAt: Date(timeIntervalSince1970: 0))
    let prompt = Renderer.prompt(state, label: nil, style: .script)
    #expect(prompt == "signed-in(a\\u{1B}]0;owned\\u{7}@b.co)> ")
    let screen = Renderer.screen(state, label: nil, style: .script, now: Date()).joined()
    #expect(!screen.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x7 })
    var errors: [UInt8] = []
    ShellOutput { _, bytes in errors += bytes }.error("expected x, got a\u{1B}[2J")
    #expect(String(decoding: errors, as: UTF8.self) == "expected x, got a\\u{1B}[2J\n")
  }

  @Test func aLinkWhoseParametersDecodeToControlsIsRefused() async throws {
    let run = try await runShell([
      "open authflow://auth/reset?token=123456&type=recovery&email=a%1Bb@c.do"
    ])
    #expect(run.errors.hasPrefix("line 1: the link's email parameter holds a control character"))
  }
}
