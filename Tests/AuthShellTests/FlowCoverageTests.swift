import AuthFlow
import Foundation
import Testing

@testable import AuthShell

/// Flow coverage: what a suite reached of the library's own map, as a table and a graph.
struct FlowCoverageTests {
  @Test func aKnownSuiteReachesKnownParts() throws {
    let examples = packageRoot.appendingPathComponent("examples").path
    let run = try runAuthflow([
      "test", examples + "/01-choice-screen.authflow",
      examples + "/03-login-valid-credentials.authflow", "--coverage", "--jobs", "2",
    ])
    #expect(run.status == 0, "\(run.error)")
    #expect(
      run.output.contains(
        """
        flow coverage:
          screens       3 of   6   50%
          transitions   2 of  25    8%
          errors        0 of  36    0%
          banners       0 of  17    0%
          all           5 of  84    5%
        """))
    #expect(run.output.contains("not reached (transitions): choice create-account signup,"))
  }

  @Test func theGraphHighlightsWhatWasReached() throws {
    let folder = NSTemporaryDirectory() + "authflow-graph-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let examples = packageRoot.appendingPathComponent("examples").path
    let run = try runAuthflow([
      "test", examples + "/03-login-valid-credentials.authflow",
      "--coverage-graph", folder + "/flow.dot",
    ])
    #expect(run.status == 0, "\(run.error)")
    let dot = try String(contentsOfFile: folder + "/flow.dot", encoding: .utf8)
    #expect(dot.contains(#""login" -> "signed-in" [ color=blue, penwidth=2.5, label="submit"];"#))
    #expect(
      dot.contains(#""signed-in" -> "choice" [ color=gray, fontcolor=gray, label="sign-out"];"#))
    let bad = try runAuthflow(["test", "--coverage-graph", "flow.png", examples])
    #expect(bad.status == 2)
  }

  @Test func theWholeGraphComesFromTheMap() throws {
    let run = try runAuthflow(["graph"])
    #expect(run.status == 0)
    for transition in AuthFlowMap.transitions {
      #expect(
        run.output.contains(
          "\"\(transition.from.rawValue)\" -> \"\(transition.to.rawValue)\" [ label=\"\(transition.step.rawValue)\"];"
        ))
    }
  }

  @Test func stepsAreDeclaredWithTheCommandAndReadFromWhereItLed() throws {
    func step(_ words: [String], _ from: FlowNode, _ to: FlowNode) throws -> FlowStep? {
      try LineParser.parse(words: words).get().input.flowStep(from, to)
    }
    #expect(try step(["signin"], .choice, .login) == .signIn)
    #expect(try step(["signin"], .login, .signedIn) == .submit)
    #expect(try step(["mail"], .login, .login) == nil)
    #expect(try step(["mail", "open"], .resetVerify, .resetVerify) == .openRecoveryLink)
    #expect(try step(["refresh"], .signedIn, .signedIn) == nil)
    #expect(try step(["refresh"], .signedIn, .choice) == .sessionEnded)
    #expect(try step(["delete-account", "confirm"], .signedIn, .choice) == .deleteAccount)
    #expect(try step(["show"], .login, .login) == nil)
  }
}
