import Foundation
import ScriptSuites
import Testing

@testable import AuthShell

/// Every script in examples/ runs with its expectations holding, and prints exactly its
/// checked-in transcript, as `authflow test examples` runs it (the same code, one script at a
/// time). `UPDATE_TRANSCRIPTS=1 swift test` rewrites the transcripts (`authflow test --update`).
struct ExampleTranscriptTests {
  static let examples: [String] = {
    let folder = packageRoot.appendingPathComponent("examples").path
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter { $0.hasSuffix(".authflow") }.sorted()
  }()

  @Test func thereAreTheTwelveScenariosTheFlowsAfterThemAndADemo() {
    let numbered = Self.examples.compactMap { Int($0.prefix(2)) }
    // 01-12 are seed 002's quickstart scenarios; 13 on tell the rest of the flow, so that
    // every screen, step, error and banner a script can reach is shown reached by one.
    #expect(numbered == Array(1...29))
    #expect(Self.examples.contains("demo.authflow"))
  }

  @Test(arguments: examples)
  func exampleMatchesItsTranscript(name: String) throws {
    let script = packageRoot.appendingPathComponent("examples/\(name)").path
    let update = ProcessInfo.processInfo.environment["UPDATE_TRANSCRIPTS"] != nil
    let options = try SuiteOptions.parse(update ? ["--update"] : [])
    let transcript = String(script.dropLast(".authflow".count)) + ".transcript"
    #expect(
      FileManager.default.fileExists(atPath: transcript) || update, "\(name) has no transcript")

    var printed: [UInt8] = []
    let reporter = SuiteReporter(
      scripts: [SuiteScript(path: script, name: name)], mode: .lines,
      output: ShellOutput { _, bytes in printed += bytes })
    let outcomes = SuiteMain.run(
      [SuiteScript(path: script, name: name)], options: options, program: authflowBinary,
      environment: ProcessInfo.processInfo.environment, reporter: reporter)
    #expect(
      outcomes.map(\.verdict) == [.passed], "\(String(decoding: printed, as: UTF8.self))")
  }
}
