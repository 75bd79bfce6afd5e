import Foundation
import Testing

@testable import AuthShell

/// `authflow test`: scripts run as a suite, each in its own `authflow` process, with golden
/// transcripts, in parallel, reported as lines (or TAP and JUnit, in SuiteReportTests).
struct SuiteTests {
  let examples = [
    "03-login-valid-credentials", "04-login-invalid-credentials", "07-signup-duplicate-email",
  ]

  @Test func aSuiteOfExamplesPassesWithALinePerScriptInOrder() throws {
    let folder = try ScriptFolder()
    defer { folder.remove() }
    try folder.copyExamples(examples)
    let run = runSuite([folder.path, "--jobs", "3"], temporary: folder.path)
    #expect(run.status == 0, "\(run.output)\(run.errors)")
    let lines = run.output.split(separator: "\n").map {
      $0.replacing(/\(\d+\.\d\d s\)/, with: "(T)")
    }
    #expect(
      lines == examples.map { "ok \($0).authflow (T)" } + ["3 passed, 0 failed"])
    #expect(run.errors.isEmpty)
    #expect(
      folder.contents == examples.flatMap { [$0 + ".authflow", $0 + ".transcript"] }.sorted(),
      "the scripts' temporary homes are gone")
  }

  @Test func aBrokenScriptFailsNamingItsLineWhatWasExpectedAndTheTranscriptsEnd() throws {
    let folder = try ScriptFolder()
    defer { folder.remove() }
    try folder.copyExamples(examples)
    let name = "04-login-invalid-credentials.authflow"
    let broken = try folder.read(name).replacing(
      #"expect error "That email or password looks incorrect""#, with: #"expect error "Welcome""#)
    try folder.write(name, broken)
    try FileManager.default.removeItem(
      atPath: folder.path + "/04-login-invalid-credentials.transcript")

    let run = runSuite([folder.path], temporary: folder.path)
    #expect(run.status == 1)
    let lines = run.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let fail = try #require(lines.firstIndex { $0.hasPrefix("FAIL \(name) (") })
    #expect(
      lines[fail + 1]
        == "  \(folder.path)/\(name):8: expected error \"Welcome\", got \"That email or password looks incorrect\""
    )
    #expect(lines[fail + 2] == "  the transcript's last 10 lines:")
    #expect(lines[(fail + 3)...(fail + 12)].allSatisfy { $0.hasPrefix("  | ") })
    #expect(lines[fail + 12] == "  | login> expect signed-out")
    #expect(lines.suffix(2) == ["2 passed, 1 failed", ""])
  }

  @Test func scriptsThatWouldShareAStoreBothPassSideBySide() throws {
    let folder = try ScriptFolder()
    defer { folder.remove() }
    // Both sign the same address up; on one store the second finds it taken.
    let signUp = """
      #!/usr/bin/env -S authflow --autoconfirm
      create
      set email twin@example.com
      set password Twin12345
      set confirm Twin12345
      consent on
      submit
      expect signed-in twin@example.com

      """
    try folder.write("a.authflow", signUp)
    try folder.write("b.authflow", signUp)
    let run = runSuite([folder.path, "--jobs", "2"], temporary: folder.path)
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.hasSuffix("2 passed, 0 failed\n"))
    #expect(folder.contents == ["a.authflow", "b.authflow"])

    // On a store the user names, the #! line's --autoconfirm is the command line's to give.
    let refused = runSuite(
      [folder.path, "--jobs", "1", "--store", folder.path + "/shared.db"], temporary: folder.path)
    #expect(refused.status == 1)
    #expect(
      refused.output.contains(
        "  authflow: the #! line of \(folder.path)/a.authflow asks for --autoconfirm on a store"
          + " other than :memory:, which only the command line may give: run authflow test"
          + " --autoconfirm \(folder.path)/a.authflow\n"), "\(refused.output)")
    #expect(
      refused.output.contains("the #! line of \(folder.path)/b.authflow asks for --autoconfirm"),
      "two scripts with one #! line: each failure names its own")
    #expect(refused.output.hasSuffix("0 passed, 2 failed\n"))
    #expect(!FileManager.default.fileExists(atPath: folder.path + "/shared.db"))

    let shared = runSuite(
      [folder.path, "--jobs", "1", "--store", folder.path + "/shared.db", "--autoconfirm"],
      temporary: folder.path)
    #expect(shared.status == 1, "the collision is real: \(shared.output)")
    #expect(shared.output.contains("ok a.authflow") && shared.output.contains("FAIL b.authflow"))
  }

  @Test func aGoldenMismatchShowsAUnifiedDiffAndUpdateRewritesIt() throws {
    let folder = try ScriptFolder()
    defer { folder.remove() }
    try folder.copyExamples(["03-login-valid-credentials"])
    let golden = "03-login-valid-credentials.transcript"
    let right = try folder.read(golden)
    try folder.write(golden, right.replacing("→ Sign In\n", with: "→ Sign On\n"))

    let failed = runSuite([folder.path], temporary: folder.path)
    #expect(failed.status == 1)
    #expect(
      failed.output.contains(
        """
          the transcript differs from \(golden)
          --- \(golden)
          +++ this run
          @@ -1,7 +1,7 @@
           #!/usr/bin/env -S authflow --store :memory:
           # Quickstart scenario 3: Login with Valid Credentials (the demo account).
           choice> signin
          -→ Sign On
          +→ Sign In
           login> set email test@example.com
           login> set password ••••••••
           login> submit

        """), "\(failed.output)")

    let updated = runSuite([folder.path, "--update"], temporary: folder.path)
    #expect(updated.status == 0)
    #expect(updated.output.contains(", transcript updated)"))
    #expect(try folder.read(golden) == right)
    let again = runSuite([folder.path, "--update"], temporary: folder.path)
    #expect(!again.output.contains("updated"), "an unchanged transcript is left alone")
    #expect(runSuite([folder.path], temporary: folder.path).status == 0)
  }

  @Test func updateWritesNoTranscriptForAFailingScript() throws {
    let folder = try ScriptFolder()
    defer { folder.remove() }
    try folder.write("bad.authflow", "expect signed-in\n")
    let run = runSuite([folder.path, "--update"], temporary: folder.path)
    #expect(run.status == 1)
    #expect(
      run.output.contains("\(folder.path)/bad.authflow:1: expected signed in, got signed out"))
    #expect(folder.contents == ["bad.authflow"])
  }

  @Test func aScriptForAnotherBackendIsSkippedWithTheReason() throws {
    let folder = try ScriptFolder()
    defer { folder.remove() }
    try folder.write("here.authflow", "expect state choice\n")
    try folder.write(
      "there.authflow", "#!/usr/bin/env -S authflow --backend supabase\nexpect state choice\n")
    let run = runSuite([folder.path], temporary: folder.path)
    #expect(run.status == 0)
    let lines = run.output.split(separator: "\n").map {
      $0.replacing(/\(\d+\.\d\d s\)/, with: "(T)")
    }
    #expect(
      lines == [
        "ok here.authflow (T)",
        "skip there.authflow: its #! line asks for the supabase backend; the suite runs embedded",
        "1 passed, 0 failed, 1 skipped",
      ])
  }

  @Test func aScriptPastTheTimeLimitIsStoppedAndOneThatCannotStartFails() throws {
    let folder = try ScriptFolder()
    defer { folder.remove() }
    try folder.write("slow.authflow", "show\n")
    let sleeper = try folder.writeProgram("sleeper", "#!/bin/sh\nexec sleep 20\n")
    let started = Date()
    let slow = runSuite(
      [folder.path + "/slow.authflow", "--time-limit", "0.3"], program: sleeper,
      temporary: folder.path)
    #expect(Date().timeIntervalSince(started) < 10)
    #expect(slow.status == 1)
    #expect(slow.output.contains("  still running after 0.30 s; stopped"))

    let missing = runSuite(
      [folder.path + "/slow.authflow"], program: folder.path + "/no-such-authflow",
      temporary: folder.path)
    #expect(missing.status == 1)
    #expect(missing.output.contains("  cannot start \(folder.path)/no-such-authflow: "))
    #expect(folder.contents == ["sleeper", "slow.authflow"])
  }

  @Test(arguments: [
    (["--jobs", "0"], "--jobs takes a number from 1 to 64"),
    (["--jobs"], "--jobs needs a value; see authflow test --help"),
    (["--bogus"], "unknown option '--bogus'; see authflow test --help"),
    (["/no/such/folder"], "cannot read /no/such/folder: No such file or directory"),
    (
      ["--", "-c", "show"],
      "-c cannot be passed to the scripts; a suite runs each script file with --echo"
    ),
    (
      ["--json"],
      "--json cannot be passed to the scripts; a suite runs each script file with --echo"
    ),
    (
      ["--backend", "supabase", "--update"],
      "--update records transcripts on the embedded backend, not on supabase"
    ),
    (["--backend=supabase", "--store", "x.db"], "--store applies to the embedded backend only"),
    (
      ["--hash-cost", "99"],
      "--hash-cost takes a number from 4 to 14; the default is 10, GoTrue's; lower it for tests only"
    ),
    (["Sources/AuthFlow"], "no *.authflow scripts in Sources/AuthFlow"),
  ])
  func aBadCommandLineIsOneLineAndStatusTwo(arguments: [String], message: String) {
    let run = runSuite(
      arguments.map { $0 == "Sources/AuthFlow" ? packageRoot.path + "/" + $0 : $0 })
    #expect(run.status == 2)
    #expect(run.output.isEmpty)
    #expect(
      run.errors
        == "authflow test: \(message.replacing("Sources/AuthFlow", with: packageRoot.path + "/Sources/AuthFlow"))\n"
    )
  }

  @Test func theExecutableRunsTheSuiteAndPrintsItsHelp() throws {
    let folder = try ScriptFolder()
    defer { folder.remove() }
    try folder.copyExamples(["01-choice-screen"])
    let run = try runAuthflow(["test", folder.path, "--tap"])
    #expect(run.status == 0, "\(run.error)")
    #expect(
      run.output == "TAP version 13\n1..1\nok 1 - 01-choice-screen.authflow\n# 1 passed, 0 failed\n"
    )
    let help = try runAuthflow(["test", "--help"])
    #expect(help.status == 0)
    #expect(help.output.hasPrefix("authflow test: run *.authflow scripts as a suite"))
    #expect(help.output.contains("--junit FILE"))
  }

  @Test func aSuiteRunsAgainstAServerWithThePassedThroughOptions() throws {
    let server = try RunningServer([
      "--store", ":memory:", "--seed", "1", "--hash-cost", "4", "--app-links", "authflow",
    ])
    defer { server.stop() }
    let run = runSuite([
      packageRoot.path + "/examples", "--backend", "supabase", "--supabase-url", server.url,
      "--supabase-key", server.anonKey, "--jobs", "1", "--", "--mailbox", server.url, "--seed", "1",
    ])
    #expect(run.status == 0, "\(run.output)")
    #expect(run.output.contains("skip demo.authflow: its #! line asks for the embedded backend"))
    #expect(run.output.contains("\n16 passed, 0 failed, 14 skipped"))
  }
}
