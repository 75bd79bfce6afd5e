import Foundation
import Testing

@testable import AuthShell

/// The demo accounts: named with their passwords wherever a newcomer looks, and put back as a
/// new store has them with one command, on the user's saved store too.
struct DemoAccountsTests {
  let folder = NSTemporaryDirectory() + "authflow-demo-" + UUID().uuidString
  var environment: [String: String] {
    ["XDG_DATA_HOME": folder + "/data", "XDG_STATE_HOME": folder + "/state"]
  }

  @Test func resetDemoPutsTheChangedAccountsBackOnTheSavedStore() throws {
    defer { try? FileManager.default.removeItem(atPath: folder) }
    // The README's session changes the demo password on the saved store...
    let changed = try runAuthflow(
      [
        "--hash-cost", "4", "-c",
        "signin; set email test@example.com; forgot; send; mail code; "
          + "set password BrandNew123; verify; "
          + "set password BrandNew123; submit; expect signed-in test@example.com",
      ], environment: environment)
    #expect(changed.status == 0, "\(changed.error)")
    let refused = try runAuthflow(
      [
        "-c",
        "signin; set email test@example.com; set password TestPassword123!; submit; "
          + "expect error \"That email or password looks incorrect\"",
      ], environment: environment)
    #expect(refused.status == 0, "\(refused.error)")
    // ... and reset-demo puts it back, the unconfirmed one waiting again.
    let reset = try runAuthflow(
      [
        "-c",
        "reset-demo; signin; set email test@example.com; set password TestPassword123!; "
          + "submit; expect signed-in test@example.com; signout; signin; "
          + "set email unverified@example.com; set password Test1234; submit; "
          + "expect error \"Please confirm your email before signing in. Check your inbox for "
          + "the link.\"",
      ], environment: environment)
    #expect(reset.status == 0, "\(reset.error)")
    #expect(
      reset.output.hasPrefix(
        "Demo accounts restored: test@example.com / TestPassword123! (confirmed) and "
          + "unverified@example.com / Test1234 (waiting for its confirmation).\n"))
  }

  @Test func resetDemoSignsOutADemoAccountAndLeavesOthersAlone() throws {
    let run = try runAuthflow([
      "--store", ":memory:", "--hash-cost", "4", "--autoconfirm", "-c",
      "create; set email mine@example.com; set password Password123; set confirm Password123; "
        + "consent on; submit; signout; signin; set email test@example.com; "
        + "set password TestPassword123!; submit; reset-demo; expect signed-out; "
        + "signin; set email mine@example.com; set password Password123; submit; "
        + "expect signed-in mine@example.com",
    ])
    #expect(run.status == 0, "\(run.error)")
  }

  @Test func theDemoPasswordsAreInHelpAndTheManual() throws {
    let help = try runAuthflow(["--store", ":memory:", "-c", "help"])
    #expect(help.output.contains("Demo accounts: test@example.com / TestPassword123! (confirmed)"))
    let usage = try runAuthflow(["--help"])
    #expect(usage.output.contains("test@example.com / TestPassword123!"))
    #expect(usage.output.contains("unverified@example.com / Test1234"))
    let manual = try runAuthflow(["--generate-manual"])
    #expect(manual.output.contains("test@example.com / TestPassword123!"))
    #expect(manual.output.contains("reset\\-demo puts them back"))
    let supabase = try runAuthflow([
      "--backend", "supabase", "--supabase-url", "http://127.0.0.1:1", "--supabase-key", "k",
      "-c", "help",
    ])
    #expect(!supabase.output.contains("Demo accounts"), "a project has its own accounts")
  }

  @Test func theShellPagesCountOfExamplesIsTheExamples() throws {
    let page = try String(
      contentsOf: packageRoot.appendingPathComponent("docs/shell.md"), encoding: .utf8)
    let examples = try FileManager.default.contentsOfDirectory(
      atPath: packageRoot.appendingPathComponent("examples").path
    ).filter { $0.hasSuffix(".authflow") }
    #expect(page.contains("then \(examples.count) passed, 0 failed"))
  }
}
