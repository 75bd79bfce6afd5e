import AuthFlow
import Foundation
import Testing

@testable import AuthShell

/// `change-password` while signed in: the new password given, from the environment, or not at
/// all, and never shown; the session that ends under `--sessions-timebox`.
@MainActor
struct ChangePasswordShellTests {
  private let signIn = [
    "signin", "set email test@example.com", "set password TestPassword123!", "submit",
  ]

  @Test func aNewPasswordKeepsTheUserSignedInAndIsNeverShown() async throws {
    var json = ShellRunner.Options()
    json.json = true
    var echo = ShellRunner.Options()
    echo.echo = true
    for options in [ShellRunner.Options(), echo, json] {
      let run = try await runShell(
        signIn + [
          "change-password Secr3tPass1",
          "expect banner \"Your password has been changed. You're still signed in.\"",
          "expect signed-in test@example.com", "change-password Secr3tPass1 extra",
        ], options: options)
      let everything = run.output + run.errors + run.history.joined(separator: "\n")
      #expect(!everything.contains("Secr3tPass1"))
      #expect(
        run.errors.contains("change-password takes one password, or nothing"), "\(run.errors)")
    }
  }

  @Test func aScriptGivesThePasswordFromTheEnvironmentOrSaysHow() async throws {
    let given = try await runShell(
      signIn + [
        "change-password $NEW_PASSWORD",
        "expect banner \"Your password has been changed. You're still signed in.\"",
      ],
      environment: ["NEW_PASSWORD": "BrandNew123"])
    #expect(given.status == 0, "\(given.errors)")
    #expect(given.history.last?.hasPrefix("expect") == true)
    #expect(given.history.contains("change-password $NEW_PASSWORD"))

    let unset = try await runShell(signIn + ["change-password $NEW_PASSWORD"])
    #expect(
      unset.errors.contains(
        "$NEW_PASSWORD is not set; give the new password in the environment: "
          + "NEW_PASSWORD=… authflow FILE"))
    let none = try await runShell(signIn + ["change-password"])
    #expect(none.errors.contains("change-password needs the new password"))
    #expect(none.status == 1)
  }

  @Test func aMaskFromHistoryIsNotAPassword() async throws {
    let run = try await runShell(signIn + ["change-password ••••••••"])
    #expect(run.errors.contains("that password is a mask from history or an echo"))
  }

  @Test func mailCodeSignedInNeedsACodeSent() async throws {
    let run = try await runShell(signIn + ["mail code"])
    #expect(
      run.errors.contains("no password-change code has been sent to test@example.com"),
      "\(run.errors)")
  }
}
