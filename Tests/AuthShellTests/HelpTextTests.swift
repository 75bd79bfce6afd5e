import AuthFlow
import Testing

@testable import AuthShell

/// Help fits the width of the screens' tables, wherever it is asked for.
struct HelpTextTests {
  /// Every place help can be asked: each screen signed out, signed in, on each backend, with
  /// and without the features only some backends have.
  private static let contexts: [ShellContext] = {
    let featureSets: [Set<BackendFeature>] = [[], [.outbox], [.outbox, .clock]]
    var contexts: [ShellContext] = []
    for screen in AuthScreen.allCases {
      for signedIn in [false, true] {
        for backend in BackendKind.allCases {
          for features in featureSets {
            contexts.append(
              ShellContext(
                screen: screen, fields: signedIn ? [] : AuthField.allCases, signedIn: signedIn,
                features: features, backend: backend))
          }
        }
      }
    }
    return contexts
  }()

  @Test func everyLineOfTheOverviewFitsOneHundredColumns() {
    for context in Self.contexts {
      for line in HelpText.overview(context) {
        #expect(line.count <= 100, "\(line.count) columns: \(line)")
      }
    }
  }

  @Test func everyLineOfEachCommandsHelpFitsOneHundredColumns() {
    for spec in CommandTable.all {
      for line in HelpText.details(spec) {
        #expect(line.count <= 100, "help \(spec.name), \(line.count) columns: \(line)")
      }
    }
  }

  @Test func aUsageTooWideForItsColumnPutsTheSummaryBelowIt() throws {
    let context = ShellContext(
      screen: .choice, fields: [], signedIn: false, features: [], backend: .embedded)
    let lines = HelpText.overview(context)
    let index = try #require(lines.firstIndex(of: "  \(CommandTable.record.spec.usage)"))
    #expect(lines[index + 1].hasPrefix(String(repeating: " ", count: 28) + "record the commands"))
  }

  @Test func wrappingKeepsEveryWordInOrder() {
    let words = (1...40).map { "word\($0)" }
    let lines = HelpText.wrap("  " + words.joined(separator: " "), indent: "    ")
    #expect(lines.count > 1)
    #expect(lines.allSatisfy { $0.count <= 100 })
    #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("    word") })
    #expect(lines.flatMap { $0.split(separator: " ").map(String.init) } == words)
  }

  @Test func aLineThatFitsIsLeftAlone() {
    #expect(HelpText.wrap("  show the screen", indent: "    ") == ["  show the screen"])
  }
}
