import EngineSettings
import Foundation
import Synchronization
import Testing

/// Every example runs on the embedded backend and on the Supabase backend against an
/// `authflow serve` on the same seed, and both transcripts agree line for line: the prompt's
/// backend label aside, `clock advance` included: it moves the server's clock and the shell's
/// together.
@Suite(.serialized)
struct ParityTests {
  @Test(arguments: ExampleTranscriptTests.examples)
  func bothBackendsTellTheSameStory(name: String) throws {
    let script = packageRoot.appendingPathComponent("examples/\(name)")
    let embedded = try runAuthflow(
      ["--store", ":memory:", "--seed", "1", "--hash-cost", "4", "--echo", script.path],
      mergeErrors: true)

    // A script whose #! line sets GoTrue's settings (new users signed in at once, a longer
    // password, no sign-ups, session limits, secure password change) runs against a server
    // set the same way.
    let header = try String(contentsOf: script, encoding: .utf8).prefix { $0 != "\n" }
      .split(separator: " ").map(String.init)
    var settings: [String] = []
    let own = [EngineSetting.store, .users, .hashCost, .seed].map(\.name)
    let shared = EngineSetting.all.filter { !own.contains($0.name) }
    for (index, word) in header.enumerated() {
      guard let setting = shared.first(where: { $0.names.contains(word) }) else { continue }
      settings.append(word)
      if setting.value != nil, index + 1 < header.count { settings.append(header[index + 1]) }
    }
    // An app that asks for its links back (`--app-scheme`) gets GoTrue's own links, which go
    // to the server and on into the app; the others, links into the app as the shell's are.
    let asksForLinksBack = header.contains("--app-scheme")
    let server = try RunningServer(
      ["--store", ":memory:", "--seed", "1", "--hash-cost", "4"]
        + (asksForLinksBack ? [] : ["--app-links", "authflow"]) + settings)
    defer { server.stop() }
    let remote = try runAuthflow(
      [
        "--backend", "supabase", "--supabase-url", server.url, "--supabase-key", server.anonKey,
        "--mailbox", server.url, "--seed", "1", "--echo", script.path,
      ], mergeErrors: true)

    let label = "supabase:127.0.0.1 "
    let expected = embedded.output.split(separator: "\n", omittingEmptySubsequences: false)
    // The backend's name shows in the prompt and in show's "Backend:" line, and only there.
    let actual = remote.output.split(separator: "\n", omittingEmptySubsequences: false)
      .filter { !$0.hasPrefix("Backend: supabase:") }
      .map { $0.hasPrefix(label) ? $0.dropFirst(label.count) : $0 }
    for index in expected.indices {
      guard index < actual.count, actual[index] == expected[index] else {
        Issue.record(
          """
          \(name) line \(index + 1) differs:
            embedded: \(expected[index])
            supabase: \(index < actual.count ? String(actual[index]) : "(end)")
          """)
        return
      }
    }
    #expect(actual.count == expected.count, "\(name): the supabase run printed more")
    #expect(remote.status == embedded.status)
  }

  /// The server's own email links (`…/verify?token=<hash>&type=recovery&redirect_to=…`, no
  /// email) reset a password from the shell.
  @Test func theServersLinksResetAPasswordFromTheShell() throws {
    let server = try RunningServer(["--store", ":memory:", "--seed", "1", "--hash-cost", "4"])
    defer { server.stop() }
    let remote = try runAuthflow([
      "--backend", "supabase", "--supabase-url", server.url, "--supabase-key", server.anonKey,
      "--mailbox", server.url, "--seed", "1", "-c",
      "signin; set email test@example.com; forgot; send; mail open; set password Another123;"
        + " verify; set password Another123; submit; expect signed-in test@example.com",
    ])
    #expect(remote.status == 0, "\(remote.error)")
    #expect(remote.output.contains("[success] Your password has been updated."))
  }

  /// Seed 004's GDPR deletion on the engine and through `authflow serve`'s `DELETE /user`.
  @Test func anAccountIsDeletedAfterAConfirmationOnBothBackends() throws {
    let script =
      "signin; set email test@example.com; set password TestPassword123!; submit;"
      + " delete-account; expect signed-in; delete-account confirm; expect signed-out;"
      + " signin; set email test@example.com; set password TestPassword123!; submit"
    let embedded = try runAuthflow(
      ["--store", ":memory:", "--seed", "1", "--hash-cost", "4", "-c", script])
    let server = try RunningServer(["--store", ":memory:", "--seed", "1", "--hash-cost", "4"])
    defer { server.stop() }
    let remote = try runAuthflow([
      "--backend", "supabase", "--supabase-url", server.url, "--supabase-key", server.anonKey,
      "--seed", "1", "-c", script,
    ])
    #expect(embedded.status == 0 && remote.status == 0, "\(embedded.error)\(remote.error)")
    #expect(embedded.output == remote.output)
    #expect(
      embedded.output.hasSuffix(
        """
        → Welcome
        ✓ Signed out
        [success] Your account and its data have been deleted.
        → Sign In
        ✗ That email or password looks incorrect

        """))
  }
}

/// An `authflow serve` on a free port, for the duration of a test.
final class RunningServer: Sendable {
  let url: String
  let anonKey: String
  private let process: Process

  init(_ options: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: authflowBinary)
    process.arguments = ["serve", "--port", "0", "--host", "127.0.0.1", "--quiet"] + options
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    self.process = process
    // The ready line comes at once; a bounded wait keeps a broken server from hanging the test.
    let line = Mutex<String?>(nil)
    let ready = DispatchSemaphore(value: 0)
    Thread {
      var bytes: [UInt8] = []
      while let byte = try? output.fileHandleForReading.read(upToCount: 1)?.first, byte != 10 {
        bytes.append(byte)
      }
      line.withLock { $0 = String(decoding: bytes, as: UTF8.self) }
      ready.signal()
    }.start()
    guard ready.wait(timeout: .now() + 30) == .success, let text = line.withLock({ $0 }) else {
      process.terminate()
      throw ServerDidNotStart(line: "")
    }
    let words = text.split(separator: " ").map(String.init)
    guard let urlIndex = words.firstIndex(where: { $0.hasPrefix("http://") }),
      let anonIndex = words.firstIndex(of: "anon"), anonIndex + 2 < words.count
    else {
      process.terminate()
      throw ServerDidNotStart(line: text)
    }
    url = words[urlIndex]
    anonKey = words[anonIndex + 2]
  }

  func stop() {
    process.terminate()
    process.waitUntilExit()
  }
}

struct ServerDidNotStart: Error {
  var line: String
}
