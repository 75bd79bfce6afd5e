import Foundation
import Testing

/// The seed 002 quickstart scenarios on `--backend firebase` against `authflow serve
/// --firebase-project`: every example that holds on Firebase as it is, and the Firebase
/// versions of the ones that differ (examples-firebase/: signup signs in at once; reset by link;
/// a reset right after signing up, which no email limit holds back).
@Suite(.serialized)
struct FirebaseShellTests {
  /// Examples whose story differs on Firebase; examples-firebase/ has their Firebase telling
  /// (GoTrue's email-less links are Firebase's oobCode links: reset-by-link), except for
  /// GoTrue's own session limits and reauthentication, which Firebase does not have.
  static let differing: Set<String> = [
    "09-password-manager.authflow", "22-delete-account.authflow", "24-email-less-links.authflow",
    "demo.authflow", "28-session-and-password.authflow",
  ]

  static let scripts: [String] = {
    // Examples that move the clock, sign up with --autoconfirm or change the demo account ask
    // for the embedded backend in their #! line; a suite on another backend skips them, and
    // so does this one.
    let shared = ExampleTranscriptTests.examples.filter { name in
      let path = packageRoot.appendingPathComponent("examples/" + name).path
      let header = (try? String(contentsOfFile: path, encoding: .utf8))?.prefix { $0 != "\n" }
      return !differing.contains(name) && header?.contains("--backend embedded") == false
    }.map { "examples/" + $0 }
    let folder = packageRoot.appendingPathComponent("examples-firebase").path
    let own = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
      .filter { $0.hasSuffix(".authflow") }.sorted().map { "examples-firebase/" + $0 }
    return shared + own
  }()

  @Test func theFirebaseVersionsAreThere() {
    #expect(Self.scripts.contains("examples-firebase/09-password-manager.authflow"))
    #expect(Self.scripts.contains("examples-firebase/reset-by-link.authflow"))
    #expect(Self.scripts.contains("examples-firebase/reset-after-signup.authflow"))
    #expect(Self.scripts.contains("examples-firebase/reset-code-mistakes.authflow"))
    #expect(Self.scripts.contains("examples-firebase/verify-email-later.authflow"))
    #expect(Self.scripts.contains("examples-firebase/delete-account.authflow"))
    #expect(!Self.scripts.contains("examples/17-too-many-code-attempts.authflow"))
    #expect(Self.scripts.contains("examples/23-non-ascii-email.authflow"))
    #expect(Self.scripts.contains("examples/27-server-unreachable.authflow"))
    #expect(Self.scripts.count == 11 + 3 + 6)
  }

  @Test(arguments: scripts)
  func theScenarioHoldsOnTheFirebaseEmulator(name: String) throws {
    let server = try RunningServer([
      "--store", ":memory:", "--seed", "1", "--hash-cost", "4", "--firebase-project", "demo-app",
    ])
    defer { server.stop() }
    let host = String(server.url.dropFirst("http://".count))
    let script = packageRoot.appendingPathComponent(name).path
    let run = try runAuthflow(
      ["--backend", "firebase", "--firebase-emulator", host, "--seed", "1", script],
      environment: ["FIREBASE_AUTH_EMULATOR_HOST": host, "FIREBASE_PROJECT_ID": "demo-app"])
    #expect(run.status == 0, "\(name): \(run.error)")
    #expect(run.error.isEmpty, "\(name): \(run.error)")
  }

  @Test func theEmulatorsMailIsListedWithoutATimeItDoesNotKeep() throws {
    let server = try RunningServer([
      "--store", ":memory:", "--seed", "1", "--hash-cost", "4", "--firebase-project", "demo-app",
    ])
    defer { server.stop() }
    let host = String(server.url.dropFirst("http://".count))
    let run = try runAuthflow(
      [
        "--backend", "firebase", "-c",
        "create; set email ada@example.com; set password Secret123; set confirm Secret123; "
          + "consent on; submit; mail",
      ],
      environment: ["FIREBASE_AUTH_EMULATOR_HOST": host, "FIREBASE_PROJECT_ID": "demo-app"])
    #expect(run.status == 0, "\(run.error)")
    // The emulator's codes carry no time: none is made up for them.
    #expect(run.output.contains("#1 to ada@example.com: Verify your email"), "\(run.output)")
  }

  @Test func badFirebaseSettingsAreOneLine() throws {
    let missing = try runAuthflow(["--backend", "firebase", "-c", "show"])
    #expect(missing.status == 2)
    #expect(
      missing.error.hasPrefix("authflow: ") && missing.error.split(separator: "\n").count == 1)
    let wrongOption = try runAuthflow(["--firebase-project", "demo-app", "-c", "show"])
    #expect(
      wrongOption.error
        == "authflow: --firebase-project applies to the firebase backend only; add --backend firebase\n"
    )
  }
}
