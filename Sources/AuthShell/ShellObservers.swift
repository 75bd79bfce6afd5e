import AuthFlow

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What one command did, as the session's observers see it.
struct StepRecord {
  /// The command.
  var invocation: Invocation
  /// How it ended.
  var result: CommandResult
  /// The state before and after it.
  var before: AuthFlowState
  var after: AuthFlowState
  /// The analytics events it sent.
  var events: [AuthEvent]
  /// The backend's time before and after it.
  var startedAt: Date
  var endedAt: Date
}

/// Something that watches each command a session runs: coverage, a recording, the presented
/// screen.
@MainActor
protocol StepObserver: AnyObject {
  /// Sees `step`, run in `session`; the lines it has to print, if any.
  func observe(_ step: StepRecord, in session: ShellSession) async -> [String]
}

/// What watches a session's steps. The runner hands each step to the observers there are; with
/// none (most scripts) it records nothing.
@MainActor
final class ShellObservers {
  /// What the run reached of the flow's map, when it is measured (`$AUTHFLOW_COVERAGE`).
  let coverage = CoverageRecorder()
  /// The recording under way (`record FILE`, `--record`): an observer while it lasts.
  var recorder: ScriptRecorder?
  /// What recordings are made with.
  var recording = RecordingContext()
  /// The screen presented in a browser (`--present`, `present`): an observer from then on.
  var presenter: ScreenPresenter?

  /// Whether anything watches the steps now (checked before every command, so it costs
  /// nothing).
  var watching: Bool { coverage.coverage != nil || recorder != nil || presenter != nil }

  /// The observers now.
  var active: [any StepObserver] {
    var observers: [any StepObserver] = []
    if coverage.coverage != nil { observers.append(coverage) }
    if let recorder { observers.append(recorder) }
    if let presenter { observers.append(presenter) }
    return observers
  }
}
