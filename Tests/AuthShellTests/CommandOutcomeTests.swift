import AuthFlow
import Testing

@testable import AuthShell

/// A request's outcome becomes the command's: a store that cannot save the session makes the
/// command a mistake (a script fails), whatever action met it; anything else is the flow's.
struct CommandOutcomeTests {
  @Test(arguments: LocalStoreProblem.allCases)
  func aStoreFailureIsTheCommandsMistake(problem: LocalStoreProblem) {
    #expect(CommandOutput.told(.failed(.localStore(problem))) == .mistake(.storeFailed(problem)))
    var output = CommandOutput.printed(["a line"])
    output.note(.failed(.localStore(problem)))
    #expect(output.lines == ["a line"] && output.result == .mistake(.storeFailed(problem)))
  }

  @Test(arguments: [
    AuthOutcome.notRun, .offline, .superseded, .failed(.invalidCredentials),
    .succeeded(.signedIn), .invalid(.emailRequired),
  ])
  func otherOutcomesAreTheFlowsToShow(outcome: AuthOutcome) {
    #expect(CommandOutput.told(outcome) == .done)
  }
}
