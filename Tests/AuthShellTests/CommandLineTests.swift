import AuthCrypto
import AuthFlowGoTrue
import Clocks
import Foundation
import PrivateFiles
import Testing

@testable import AuthShell

/// The `authflow` binary: flags, exit statuses, files and standard input.
struct CommandLineTests {
  @Test(arguments: [
    (["--bogus"], "authflow: unknown option '--bogus'; see authflow --help\n"),
    (["--store"], "authflow: --store needs a value; see authflow --help\n"),
    (
      ["--hash-cost", "3"],
      "authflow: --hash-cost takes a number from 4 to 14; the default is 10, GoTrue's; lower it for tests only\n"
    ),
    (
      ["--hash-cost=x"],
      "authflow: --hash-cost takes a number from 4 to 14; the default is 10, GoTrue's; lower it for tests only\n"
    ),
    (
      ["--hash-cost", "31", "-c", "show"],
      "authflow: --hash-cost takes a number from 4 to 14; the default is 10, GoTrue's; lower it for tests only\n"
    ),
    (
      ["--seed", "1", "-c", "show"],
      "authflow: --seed makes every code, token and key predictable, so it only runs on a throw-away store; add --store :memory:\n"
    ),
    (
      ["--seed", "1", "--store", "seeded.db", "-c", "show"],
      "authflow: --seed makes every code, token and key predictable, so it only runs on a throw-away store; add --store :memory:\n"
    ),
    (
      ["--timeout", "0.5", "--backend", "supabase"],
      "authflow: --timeout takes seconds from 1 to 300; the default is 10\n"
    ),
    (["--seed", "-1"], "authflow: --seed takes a whole number; for example --seed 1\n"),
    (
      ["--backend", "pocketbase"],
      "authflow: --backend takes embedded, supabase or firebase, not 'pocketbase'\n"
    ),
    (["--echo=yes"], "authflow: --echo takes no value\n"),
    (
      ["-c", "show", "script.authflow"],
      "authflow: give either -c commands or a script file, not both\n"
    ),
    (
      ["a.authflow", "b.authflow"],
      "authflow: only one script file can be run at a time; see authflow --help\n"
    ),
    (
      ["/nonexistent/script.authflow"],
      "authflow: cannot read /nonexistent/script.authflow: No such file or directory\n"
    ),
    (
      ["--backend", "supabase", "--mailbox", "1"],
      "authflow: the supabase backend needs the project URL; "
        + "set SUPABASE_URL and SUPABASE_ANON_KEY, or pass --supabase-url and --supabase-key\n"
    ),
    (
      ["--mailbox", "http://127.0.0.1:9999"],
      "authflow: --mailbox applies to the supabase backend only; add --backend supabase\n"
    ),
    (
      ["--app-scheme", "https"],
      "authflow: --app-scheme takes an app's URL scheme such as volvoxsober (a letter, then "
        + "letters, digits, + - .); http and https open a website, not the app\n"
    ),
    (
      ["--app-scheme", "volvox sober://"],
      "authflow: --app-scheme takes an app's URL scheme such as volvoxsober (a letter, then "
        + "letters, digits, + - .)\n"
    ),
    (
      ["--backend", "firebase", "--app-scheme", "volvoxsober", "--firebase-key", "k"],
      "authflow: --app-scheme applies to the embedded and supabase backends only\n"
    ),
    (
      ["--store", "/proc/authflow/auth.db", "-c", "show"],
      "authflow: cannot create the store at /proc/authflow: No such file or directory; pass --store with a writable path\n"
    ),
  ])
  func badCommandLinesExitTwoWithOneLine(arguments: [String], message: String) throws {
    let result = try runAuthflow(arguments)
    #expect(result.status == 2)
    #expect(result.error == message)
    #expect(result.output == "")
  }

  @Test func aSeededRunNeverTouchesAFileStoreOrSessionKey() throws {
    let folder = NSTemporaryDirectory() + "authflow-seeded-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let environment = ["XDG_DATA_HOME": folder + "/data", "XDG_STATE_HOME": folder + "/state"]
    let signIn = "signin; set email test@example.com; set password TestPassword123!; submit"
    let refused = try runAuthflow(["--seed", "1", "-c", signIn], environment: environment)
    #expect(refused.status == 2)
    #expect(!FileManager.default.fileExists(atPath: folder), "no store, no key, no session")

    let memory = try runAuthflow(
      ["--seed", "1", "--store", ":memory:", "--hash-cost", "4", "-c", signIn],
      environment: environment)
    #expect(memory.status == 0)
    #expect(memory.output.contains("Signed in as test@example.com"))
    #expect(!FileManager.default.fileExists(atPath: folder), "a :memory: run writes nothing")
  }

  @Test func aFileStoreCannotTravelInTime() throws {
    let folder = NSTemporaryDirectory() + "authflow-clock-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let result = try runAuthflow([
      "--store", folder + "/auth.db", "--hash-cost", "4", "-c", "clock advance 25h",
    ])
    #expect(result.status == 1)
    #expect(result.error.hasPrefix("line 1: 'clock' needs a store of its own"))
  }

  /// Numbers from outside that once crashed the shell: a ten-billion-year clock, then signing in.
  @Test func absurdNumbersAreRefusedNotFatal() throws {
    let result = try runAuthflow([
      "--store", ":memory:", "--hash-cost", "4", "-c", "clock advance 999999999999d", "-c",
      "signin; set email test@example.com; set password TestPassword123!; submit; whoami",
    ])
    #expect(result.status == 1)
    #expect(result.output.contains("Signed in as test@example.com"))
    #expect(result.error.hasPrefix("line 1: clock takes a duration"))
  }

  @Test func aSessionKeyOfTheWrongSizeIsAClearError() throws {
    let folder = NSTemporaryDirectory() + "authflow-key-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let environment = ["XDG_DATA_HOME": folder + "/data", "XDG_STATE_HOME": folder + "/state"]
    try PrivateFile.ensureDirectory(folder + "/state/authflow")
    try PrivateFile.write(Array("short".utf8), to: folder + "/state/authflow/session.key")
    let result = try runAuthflow(
      ["--hash-cost", "4", "--keep-session", "-c", "show"], environment: environment)
    #expect(result.status == 2)
    #expect(
      result.error
        == "authflow: the session key \(folder)/state/authflow/session.key is 5 bytes, not 32: it was changed or damaged; remove it to start afresh (saved sessions are then forgotten)\n"
    )
  }

  @Test func helpAndVersion() throws {
    let help = try runAuthflow(["--help"])
    #expect(help.status == 0)
    #expect(help.output.contains("usage: authflow [options]"))
    #expect(help.output.contains("--seed N"))
    let version = try runAuthflow(["--version"])
    #expect(version.output == "authflow 0.1.0\n")
  }

  @Test func everySubcommandIsListedByHelpAndRuns() throws {
    let help = try runAuthflow(["--help"]).output
    for subcommand in Subcommand.allCases {
      #expect(help.contains("authflow \(subcommand.synopsis)"), "\(subcommand)")
    }
    let graph = try runAuthflow(["graph"])
    #expect(graph.status == 0)
    #expect(graph.output.hasPrefix("digraph authflow {"))
    let test = try runAuthflow(["test", "--help"])
    #expect(test.status == 0 && test.output.contains("authflow test"))
  }

  @Test func scriptOnStandardInput() throws {
    let result = try runAuthflow(
      ["--store", ":memory:", "--hash-cost", "4"],
      input: Data(
        "signin\nset email test@example.com\nset password TestPassword123!\nsubmit\nexpect signed-in\n"
          .utf8))
    #expect(result.status == 0)
    #expect(result.output == "→ Sign In\n✓ Signed in as test@example.com\n")
  }

  @Test func commandsWithDashC() throws {
    let result = try runAuthflow([
      "--store", ":memory:", "-c", "signin; expect state login", "-c", "back; expect state login",
    ])
    #expect(result.status == 1)
    #expect(result.output == "→ Sign In\n→ Welcome\n")
    #expect(result.error == "line 2 (command 2): expected state login, got choice\n")
  }

  @Test func shebangScriptRunsDirectly() throws {
    let folder = NSTemporaryDirectory() + "authflow-shebang-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let script = folder + "/flow.authflow"
    try writeProgram(
      atPath: script, "#!/usr/bin/env -S authflow --store :memory:\nsignin\nexpect state login\n")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: script)
    var environment = ProcessInfo.processInfo.environment
    environment["PATH"] =
      URL(fileURLWithPath: authflowBinary).deletingLastPathComponent().path + ":"
      + (environment["PATH"] ?? "")
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(
      String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        == "→ Sign In\n")
  }

  @Test func sessionIsRestoredFromTheDefaultStoreButNotFromMemory() throws {
    let scratch = NSTemporaryDirectory() + "authflow-restore-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let environment = ["XDG_DATA_HOME": scratch + "/data", "XDG_STATE_HOME": scratch + "/state"]
    let first = try runAuthflow(
      [
        "--hash-cost", "4", "--keep-session", "-c",
        "signin; set email test@example.com; set password TestPassword123!; submit",
      ],
      environment: environment)
    #expect(first.output.hasSuffix("✓ Signed in as test@example.com\n"))
    let second = try runAuthflow(
      ["--keep-session", "-c", "expect signed-in test@example.com"], environment: environment)
    #expect(second.output == "✓ Signed in as test@example.com (restored)\n")
    #expect(second.status == 0)
    #expect(PrivateFile.permissions(of: scratch + "/data/authflow/auth.db") == 0o600)
    #expect(PrivateFile.permissions(of: scratch + "/data/authflow") == 0o700)
    let sessions = try FileManager.default.contentsOfDirectory(
      atPath: scratch + "/state/authflow/sessions"
    ).filter { $0.hasSuffix(".session") }
    #expect(sessions.count == 1)
    let sealed = try String(
      contentsOfFile: scratch + "/state/authflow/sessions/" + sessions[0], encoding: .utf8)
    #expect(!sealed.contains("test@example.com") && !sealed.contains("eyJ"))
    let memory = try runAuthflow(
      ["--store", ":memory:", "-c", "expect signed-out"], environment: environment)
    #expect(memory.status == 0 && memory.output == "")
  }

  @Test func noColourOutsideATerminal() throws {
    let result = try runAuthflow(
      ["--store", ":memory:", "-c", "signin; submit"], environment: ["TERM": "xterm-256color"])
    #expect(!result.output.contains("\u{1B}"))
  }
}
