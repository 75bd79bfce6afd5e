import AuthFlowGoTrue
import Clocks
import Foundation
import PrivateFiles
import Testing

/// Every script in examples/ runs with its expectations holding, and prints exactly its
/// checked-in transcript. `UPDATE_TRANSCRIPTS=1 swift test` rewrites the transcripts.
struct ExampleTranscriptTests {
  static let examples: [String] = {
    let folder = packageRoot.appendingPathComponent("examples").path
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter { $0.hasSuffix(".authflow") }.sorted()
  }()

  @Test func thereAreTheTwelveScenariosAndADemo() {
    #expect(Self.examples.filter { $0.first?.isNumber == true }.count == 12)
    #expect(Self.examples.contains("demo.authflow"))
  }

  @Test(arguments: examples)
  func exampleMatchesItsTranscript(name: String) throws {
    let script = packageRoot.appendingPathComponent("examples/\(name)")
    let text = try String(contentsOf: script, encoding: .utf8)
    // The shebang's options are part of the example; the harness adds reproducibility.
    let shebang = text.split(separator: "\n").first ?? ""
    var options = shebang.split(separator: " ").drop { !$0.hasSuffix("authflow") }.dropFirst().map(
      String.init)
    options += ["--seed", "1", "--hash-cost", "4", "--echo", script.path]

    let result = try runAuthflow(options, mergeErrors: true)
    #expect(result.status == 0, "\(name) failed:\n\(result.output)")

    let transcript = script.deletingPathExtension().appendingPathExtension("transcript")
    if ProcessInfo.processInfo.environment["UPDATE_TRANSCRIPTS"] != nil {
      try result.output.write(to: transcript, atomically: true, encoding: .utf8)
    }
    let expected = (try? String(contentsOf: transcript, encoding: .utf8)) ?? "(no transcript)"
    #expect(result.output == expected, "\(name) differs from \(transcript.lastPathComponent)")
  }
}
