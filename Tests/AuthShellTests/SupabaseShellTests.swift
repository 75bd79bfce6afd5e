import AuthFlowGoTrue
import Clocks
import Foundation
import PrivateFiles
import Testing

/// The shell on the Supabase backend, end to end: the static-free debug binary, its HTTP helper
/// and a fake Auth API on loopback.
@Suite(.serialized)
final class SupabaseShellTests {
  static let key = "eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoiYW5vbiJ9.anon-signature"
  let server = Process()
  let url: String
  let scratch = NSTemporaryDirectory() + "authflow-supabase-" + UUID().uuidString

  init() throws {
    server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    server.arguments = [
      packageRoot.appendingPathComponent("Tests/AuthShellTests/Support/fake_gotrue.py").path,
      Self.key,
    ]
    let output = Pipe()
    server.standardOutput = output
    try server.run()
    let port = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    url = "http://127.0.0.1:\(port)"
  }

  deinit {
    kill(server.processIdentifier, SIGKILL)
    try? FileManager.default.removeItem(atPath: scratch)
  }

  private func shell(_ commands: String, extra: [String] = [], environment: [String: String] = [:])
    throws
    -> ProcessResult
  {
    var env = ["XDG_STATE_HOME": scratch + "/state", "XDG_DATA_HOME": scratch + "/data"]
    for (name, value) in environment { env[name] = value }
    // These runs are about the saved session, which scripts only keep when asked.
    return try runAuthflow(
      ["--backend", "supabase", "--keep-session"] + extra + ["-c", commands], environment: env)
  }

  @Test func signInWrongThenRightThenSignOut() throws {
    let environment = ["SUPABASE_URL": url, "SUPABASE_ANON_KEY": Self.key]
    let result = try shell(
      "signin; set email test@example.com; set password nope; submit; set password TestPassword123!; submit; whoami; mail",
      environment: environment)
    #expect(
      result.output.hasPrefix(
        "→ Sign In\n✗ That email or password looks incorrect\n✓ Signed in as test@example.com\n"
          + "test@example.com\n  user id: 3f1c2a8e-6b7d-4c5e-9f10-2a3b4c5d6e7f\n"
          + "  email confirmed: 2025-01-01T00:00:00Z\n  email_verified: true\n"
          + "  session expires: in "))
    #expect(
      result.error
        == "line 1 (command 8): 'mail' needs an outbox to read (the embedded backend has one; supabase with --mailbox); the supabase backend has none\n"
    )

    // The session was saved for this project and comes back on the next start.
    let second = try shell(
      "expect signed-in test@example.com; show; signout", environment: environment)
    #expect(second.status == 0, "\(second.error)")
    #expect(
      second.output.hasPrefix(
        "✓ Signed in as test@example.com (restored)\nBackend: supabase:127.0.0.1\nSigned in\n"))
    let third = try shell(
      "expect signed-out; create; set email test@example.com; set password Password123; set confirm Password123; consent on; submit",
      environment: environment)
    #expect(
      third.output.hasSuffix(
        "✗ An account with this email already exists. Try logging in instead.\n"))
    #expect(third.status == 0, "\(third.error)")
  }

  @Test func aServerWithoutAClockRouteSaysSoInOneLine() throws {
    let result = try shell(
      "clock advance 1h", environment: ["SUPABASE_URL": url, "SUPABASE_ANON_KEY": Self.key])
    #expect(
      result.error
        == "line 1: the clock did not move: the server has no clock to move: only authflow serve "
        + "answers /authflow/v1/clock (a Supabase project does not)\n")
  }

  @Test func flagsOverrideTheEnvironmentAndEchoShowsTheProject() throws {
    let result = try shell(
      "signin",
      extra: ["--supabase-url", url, "--supabase-key", Self.key, "--echo", "--timeout", "5"])
    #expect(result.output == "supabase:127.0.0.1 choice> signin\n→ Sign In\n")
  }

  @Test func anUnreachableProjectIsNetworkUnavailable() throws {
    let result = try shell(
      "signin; set email a@b.co; set password x; submit",
      extra: ["--supabase-url", "http://127.0.0.1:9", "--supabase-key", Self.key, "--timeout", "2"])
    #expect(
      result.output.hasSuffix("✗ Can't reach the server. Check your connection and try again.\n"))
  }

  @Test(arguments: [
    (
      [String](), [String: String](),
      "authflow: the supabase backend needs the project URL; set SUPABASE_URL and SUPABASE_ANON_KEY, or pass --supabase-url and --supabase-key\n"
    ),
    (
      [], ["SUPABASE_URL": "https://abcd.supabase.co"],
      "authflow: the Supabase anon key is missing; set SUPABASE_ANON_KEY or pass --supabase-key\n"
    ),
    (
      ["--supabase-url", "abcd.supabase.co", "--supabase-key", key], [:],
      "authflow: the Supabase URL is not usable: it is not a URL; expected https://<project-ref>.supabase.co\n"
    ),
    (
      ["--supabase-url", "https://abcd.supabase.co", "--supabase-key", "service-secret"], [:],
      "authflow: the Supabase key does not look like an anon key (eyJ…, a JWT) or a publishable key (sb_publishable_…)\n"
    ),
    (
      ["--supabase-url", "https://abcd.supabase.co", "--timeout", "0"], [:],
      "authflow: --timeout takes seconds from 1 to 300; the default is 10\n"
    ),
  ])
  func badSettingsExitTwo(extra: [String], environment: [String: String], message: String) throws {
    var env = environment
    env["SUPABASE_URL"] = env["SUPABASE_URL"] ?? ""
    env["SUPABASE_ANON_KEY"] = env["SUPABASE_ANON_KEY"] ?? ""
    let result = try shell("show", extra: extra, environment: env)
    #expect(result.status == 2)
    #expect(result.error == message)
    #expect(!result.error.contains("service-secret"))
  }

  @Test func supabaseFlagsNeedTheSupabaseBackend() throws {
    let result = try runAuthflow(["--timeout", "5", "-c", "show"])
    #expect(result.status == 2)
    #expect(
      result.error
        == "authflow: --timeout applies to the supabase and firebase backends only\n")
  }

  @Test func aRecordingOnAProjectIsNotReplayedAndNamesTheAccountsItNeeds() throws {
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    let path = scratch + "/project.authflow"
    let result = try shell(
      "record \(path) --transcript; record \(path); signin; set email test@example.com; "
        + "set password Lovelace1; submit; set password TestPassword123!; submit; record stop",
      extra: ["--supabase-url", url, "--timeout", "5"],
      environment: ["SUPABASE_ANON_KEY": Self.key])
    #expect(
      result.error.hasPrefix(
        "line 1 (command 1): --transcript needs the embedded backend: on the supabase backend"))
    let recorded = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    #expect(
      recorded.hasPrefix(
        "#!/usr/bin/env -S authflow --backend supabase --supabase-url \(url) --timeout 5\n"),
      "the key stays in the environment: \(recorded)")
    #expect(!recorded.contains(Self.key) && !recorded.contains("Lovelace1"))
    #expect(!recorded.contains("create"), "no account is made on a project")
    #expect(recorded.contains("set password $TEST_WRONG_PASSWORD\n"))
    #expect(recorded.hasSuffix("submit\nexpect signed-in test@example.com\n"))
    #expect(
      result.output.contains(
        "It relies on test@example.com, made before the recording began: it must exist on the "
          + "project when it runs."))
    #expect(
      result.output.contains(
        "Not replayed: a replay on the supabase backend makes accounts on the project;"))
  }

  @Test func aRecordingBegunSignedInOnAProjectSignsInFirst() throws {
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    let environment = ["SUPABASE_URL": url, "SUPABASE_ANON_KEY": Self.key]
    let signIn = try shell(
      "signin; set email test@example.com; set password TestPassword123!; submit",
      environment: environment)
    #expect(signIn.status == 0, "\(signIn.error)")
    let path = scratch + "/restored.authflow"
    let result = try shell("record \(path); whoami; signout", environment: environment)
    #expect(result.status == 0, "\(result.error)")
    let recorded = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    #expect(
      recorded.contains(
        """
        #   TEST_PASSWORD  the password for test@example.com, whose account must exist on the project

        # Where the recording began:
        signin
        set email test@example.com
        set password $TEST_PASSWORD
        submit

        # The exploration.
        whoami
        signout
        """), "\(recorded)")
    #expect(
      result.output.contains(
        "It began away from the choice screen: the file starts with the steps that get there."))
  }
}
