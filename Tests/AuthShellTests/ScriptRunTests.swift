import Foundation
import Testing

@testable import AuthShell

/// A script's result does not hang on the last run: it starts signed out and keeps its session
/// to itself unless it is run with `--keep-session`, and its `#!` line's options that keep it in
/// a sandbox apply when it is run as `authflow FILE`.
struct ScriptRunTests {
  let folder = NSTemporaryDirectory() + "authflow-scripts-" + UUID().uuidString
  var environment: [String: String] {
    ["XDG_DATA_HOME": folder + "/data", "XDG_STATE_HOME": folder + "/state"]
  }
  let signIn = "signin; set email test@example.com; set password TestPassword123!; submit"

  @Test func aScriptStartsSignedOutAndLeavesTheSavedSessionAlone() throws {
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let first = try runAuthflow(["-c", signIn + "; expect signed-in"], environment: environment)
    #expect(first.status == 0, "\(first.error)")
    let second = try runAuthflow(["-c", "expect signed-out"], environment: environment)
    #expect(second.status == 0, "a script starts signed out: \(second.error)")

    let kept = try runAuthflow(
      ["--keep-session", "-c", signIn + "; expect signed-in"], environment: environment)
    #expect(kept.status == 0, "\(kept.error)")
    let resumed = try runAuthflow(
      ["--keep-session", "-c", "expect signed-in test@example.com"], environment: environment)
    #expect(resumed.status == 0, "--keep-session starts from the saved one: \(resumed.error)")
    let fresh = try runAuthflow(["-c", "expect signed-out"], environment: environment)
    #expect(fresh.status == 0, "\(fresh.error)")
  }

  @Test func theShebangLinesOptionsApplyAndTheCommandLineWins() throws {
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let script = folder + "/login.authflow"
    try """
    #!/usr/bin/env -S authflow --store :memory: --hash-cost 4 --plain
    \(signIn)
    expect signed-in
    """.write(toFile: script, atomically: true, encoding: .utf8)

    let run = try runAuthflow([script], environment: environment)
    #expect(run.status == 0, "\(run.error)")
    #expect(run.output.hasSuffix("\nSigned in as test@example.com\n"), "--plain applied")
    #expect(!FileManager.default.fileExists(atPath: folder + "/data/authflow/auth.db"))

    // A store the user names on the command line wins over the line's :memory:; the line's
    // --hash-cost then is the command line's to give.
    let store = folder + "/chosen.db"
    let overridden = try runAuthflow(
      ["--store", store, "--hash-cost", "4", script], environment: environment)
    #expect(overridden.status == 0, "\(overridden.error)")
    #expect(FileManager.default.fileExists(atPath: store), "the command line chose the store")

    // Options for the backend the #! line names come from the command line, with the backend
    // (a project's recording replayed against a fresh emulator).
    let firebase = folder + "/firebase.authflow"
    try "#!/usr/bin/env -S authflow --backend firebase --firebase-project demo-p\nshow\n".write(
      toFile: firebase, atomically: true, encoding: .utf8)
    let refused = try runAuthflow(
      ["--firebase-emulator", "127.0.0.1:1", firebase], environment: environment)
    #expect(refused.status == 2)
    #expect(
      refused.error
        == "authflow: the #! line of \(firebase) asks for --backend firebase and --firebase-project"
        + " demo-p, which only the command line may give: run authflow --backend firebase"
        + " --firebase-project demo-p \(firebase)\n")
    let pointed = try runAuthflow(
      [
        "--backend", "firebase", "--firebase-project", "demo-p", "--firebase-emulator",
        "127.0.0.1:1", firebase,
      ], environment: environment)
    #expect(pointed.status == 0, "\(pointed.error)")
    #expect(pointed.output.hasPrefix("Backend: firebase:demo-p@127.0.0.1:1\n"))
    // The prompt names the project; the emulator's address is show's to give.
    let echoed = try runAuthflow(
      [
        "--backend", "firebase", "--firebase-project", "demo-p", "--firebase-emulator",
        "127.0.0.1:1", "--echo", "-c", "back",
      ], environment: environment)
    #expect(echoed.output.hasPrefix("firebase:demo-p choice> back\n"), "\(echoed.output)")
    let stray = try runAuthflow(["--firebase-emulator", "127.0.0.1:1", script])
    #expect(stray.status == 2, "the #! line names no firebase backend")

    let wrong = folder + "/bad.authflow"
    try "#!/usr/bin/env -S authflow --bogus\nshow\n".write(
      toFile: wrong, atomically: true, encoding: .utf8)
    let bogus = try runAuthflow([wrong], environment: environment)
    #expect(bogus.status == 2)
    #expect(bogus.error == "authflow: unknown option '--bogus'; see authflow --help\n")
  }

  @Test func anotherBackendSetsAsideOnlyTheLinesOptionsOfOthers() {
    #expect(
      ScriptHeader.keeping(
        ["--store", ":memory:", "--plain", "--hash-cost=4", "--backend", "embedded", "--echo"],
        for: .supabase) == ["--plain", "--echo"])
    #expect(
      ScriptHeader.keeping(["--store", ":memory:", "--plain"], for: .embedded)
        == ["--store", ":memory:", "--plain"])
    #expect(
      ScriptHeader.options(inShebang: "#!/usr/bin/env -S authflow --store :memory: --plain")
        == ["--store", ":memory:", "--plain"])
    #expect(ScriptHeader.options(inShebang: "#!/bin/sh") == nil)
    #expect(ScriptHeader.options(inShebang: "signin") == nil)
  }

  /// Seed 004's automatic refresh: a session on show is never an expired one.
  @Test func anExpiredTokenIsRenewedBeforeTheNextCommand() throws {
    let run = try runAuthflow([
      "--store", ":memory:", "--seed", "1", "--hash-cost", "4", "-c",
      signIn + "; clock advance 2h; whoami; expect signed-in",
    ])
    #expect(run.status == 0, "\(run.error)")
    #expect(run.output.contains("  session expires: in 1h 0m (2025-01-01T03:00:00Z)\n"))
    #expect(!run.output.contains("expired"))
  }

  /// Seed 003's registration: optional names and the consent, kept with the account.
  @Test func namesAndConsentAreKeptWithTheAccount() throws {
    let run = try runAuthflow([
      "--store", ":memory:", "--seed", "1", "--hash-cost", "4", "--autoconfirm", "-c",
      "create; set email ada@example.com; set password Password123; set confirm Password123;"
        + " set first-name Ada; set last-name 'Lovelace King'; consent on; submit; whoami",
    ])
    #expect(run.status == 0, "\(run.error)")
    #expect(
      run.output.hasSuffix(
        """
          email_verified: true
          session expires: in 1h 0m (2025-01-01T01:00:00Z)
          first_name: Ada
          last_name: Lovelace King
          terms_accepted: terms_of_service privacy_policy
          terms_accepted_at: 2025-01-01T00:00:00Z

        """))
  }

  /// Signing out empties no inbox: the outbox is the user's mail, not the app's data; and the
  /// password manager is the device's, so the typed password is still offered on the sign-in
  /// screen (seed 002 scenario 9).
  @Test func signingOutKeepsTheOutboxAndTheSavedPassword() throws {
    let run = try runAuthflow([
      "--store", ":memory:", "--seed", "1", "--hash-cost", "4", "-c",
      "create; set email newuser@example.com; set password Password123; set confirm Password123;"
        + " consent on; submit; mail open; autofill; submit; signout; mail; signin; autofill;"
        + " submit; expect signed-in newuser@example.com",
    ])
    #expect(
      run.output.contains(
        "Saved the password for newuser@example.com in this session's password manager; "
          + "autofill fills it in on the sign-in screen.\n"))
    #expect(run.output.contains("✓ Signed out\n#1 "), "\(run.output)")
    #expect(!run.output.contains("The outbox is empty."))
    #expect(
      run.output.hasSuffix(
        "Filled in the saved email and password (hidden).\n✓ Signed in as newuser@example.com\n"))
    #expect(!run.output.contains("Password123"))
    #expect(run.error.isEmpty)
  }

  /// Deleting the account forgets its saved password: there is nothing left to sign in to.
  @Test func deletingTheAccountForgetsTheSavedPassword() throws {
    let run = try runAuthflow([
      "--store", ":memory:", "--seed", "1", "--hash-cost", "4", "--autoconfirm", "-c",
      "create; set email newuser@example.com; set password Password123; set confirm Password123;"
        + " consent on; submit; delete-account confirm; signin; autofill",
    ])
    #expect(run.output.contains("[success] Your account and its data have been deleted.\n"))
    #expect(
      run.error
        == "line 1 (command 9): no saved password; creating an account in this session saves its password\n"
    )
  }

  /// A signup that only resends the confirmation keeps the first password, so the new one is
  /// not saved.
  @Test func aSignupThatKeepsTheFirstPasswordSavesNothing() throws {
    let run = try runAuthflow([
      "--store", ":memory:", "--seed", "1", "--hash-cost", "4", "-c",
      "create; set email newuser@example.com; set password Password123; set confirm Password123;"
        + " consent on; submit; clock advance 2m; set password Password456; set confirm Password456;"
        + " submit; mail open; autofill; submit; expect signed-in newuser@example.com",
    ])
    #expect(run.output.contains("sign in afterwards with the password chosen the first time."))
    #expect(
      run.output.components(separatedBy: "Saved the password for newuser@example.com").count == 2)
  }
}
