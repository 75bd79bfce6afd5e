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
  ])
  func aSecretInAnyShapeOfLineIsMasked(line: String) async throws {
    let leaked = try await everything(["signin", line])
    #expect(!leaked.contains("Secr3tPass"), "\(line)")
  }

  @Test func onlyLinesThatParsedAreKeptInHistory() async throws {
    let run = try await runShell([
      "signin", "Hunter22Password", "set email a@b.co", "sigin", "set password x1; bogus",
      "set password \"half",
    ])
    #expect(run.history == ["signin", "set email a@b.co"])
  }

  @Test func mistypedWordsAreNamedOnlyWhenTheyLookLikeTypos() async throws {
    let run = try await runShell([
      "signin", "sigin", "Hunter22Password", "set passwrod x", "set Hunter22Password",
    ])
    #expect(
      run.errors == """
        line 2: unknown command 'sigin'; did you mean 'signin'? Type help for the list
        line 3: unknown command (not repeated, in case it was a secret); type help for the list
        line 4: there is no field named 'passwrod'; fields: email, password, confirm, otp
        line 5: there is no such field (not repeated, in case it was a secret); fields: email, password, confirm, otp

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
    #expect(machine.output.contains("code ••••••••  authflow://auth/reset?••••••••"))
  }
}
