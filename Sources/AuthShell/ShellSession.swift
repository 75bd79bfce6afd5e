import AuthFlow

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What the terminal adds to a session: unseen input and a spinner that Ctrl-C can stop.
@MainActor
protocol ShellTerminal: AnyObject {
  /// Reads a line without echoing it; `nil` when the user cancels.
  func readSecret(prompt: String) -> String?
  /// Waits for `task`, showing what `label` says is happening with a spinner; Ctrl-C cancels
  /// the task.
  func wait<Value>(for task: Task<Value, Never>, label: @escaping @MainActor () -> String) async
}

/// One shell session: the view model, its backend, and the commands that drive them.
///
/// Commands append the lines they print to ``pendingLines``; the runner decides whether they go
/// to the terminal or into a JSON object.
@MainActor
final class ShellSession {
  /// The flow being driven.
  let viewModel: AuthViewModel
  /// The backend under it.
  let backend: ShellBackend
  /// How output looks.
  let style: RenderStyle
  /// The terminal, in interactive sessions.
  weak var terminal: (any ShellTerminal)?
  /// Lines printed by the last command, not yet written.
  var pendingLines: [String] = []
  /// Whether output that machines keep (`--json`) is being written: then even the outbox's
  /// codes and links, which a person reading the screen is shown, are masked.
  var masksCodes = false

  let events = EventRing()
  /// What this run reached of the flow's map, when it is measured (`$AUTHFLOW_COVERAGE`).
  let coverage = CoverageRecorder()
  /// The session's "password manager": suggested passwords an account was created with, by
  /// email. In memory only, never printed.
  var savedPasswords: [String: String] = [:]
  /// The last suggested password, until an account is created with it.
  var suggestion: String?
  /// The environment, which `set <field> $NAME` reads.
  var environment: [String: String] = [:]
  /// How a script run at a terminal asks for a secret its environment lacks (`set password
  /// $NAME` with `NAME` unset); interactive sessions ask through ``terminal``.
  var asksForSecrets: (@MainActor (String) -> String?)?
  /// The recording under way, if any (`record FILE`).
  var recorder: ScriptRecorder?
  /// What recordings are made with.
  var recording = RecordingContext()
  /// What the backend offers beyond the app's service, and its name: fixed for the session.
  private let features: Set<BackendFeature>
  private let backendKind: BackendKind

  /// A session on `backend`.
  init(backend: ShellBackend, style: RenderStyle) {
    self.backend = backend
    self.style = style
    features = backend.features
    backendKind = backend.kind
    let ring = events
    let recorder = coverage
    let clock = backend.shellClock
    viewModel = AuthViewModel(
      service: backend.service,
      events: AuthEventSink {
        ring.append($0)
        recorder.coverage?.record(events: [$0])
      },
      now: { clock?.now ?? Date() })
  }

  /// What decides which commands can run now.
  var context: ShellContext { context(viewModel.state) }

  private func context(_ state: AuthFlowState) -> ShellContext {
    ShellContext(
      screen: state.navigation.screen, fields: state.navigation.fields,
      signedIn: state.session != nil, features: features, backend: backendKind)
  }

  /// The current time as the backend sees it.
  var now: Date { backend.now }

  /// Restores the session an earlier run saved, telling the user if one was.
  func start() async {
    guard backend.restoresSession else { return }
    await viewModel.restoreSession()
    if let session = viewModel.session {
      let email = TerminalText.visible(session.user.email)
      pendingLines.append(Renderer.success("Signed in as \(email) (restored)", style))
    } else if let error = viewModel.errorMessage {
      pendingLines.append(
        Renderer.errorLine("The saved session could not be restored: \(error)", style))
    }
  }

  /// Renews the session before a command when its access token is about to expire, so no
  /// command sees an expired session as signed in; prints nothing unless it ends the session.
  func renewSessionIfDue() async {
    let before = viewModel.state
    await viewModel.renewSessionIfDue()
    if before.session != nil, viewModel.session == nil {
      coverage.coverage?.recordSessionEnded(from: before, to: viewModel.state)
      pendingLines += Renderer.changes(
        from: before, to: viewModel.state, answered: true, style: style)
    }
  }

  /// How a command runs.
  enum Step {
    /// It ran at once.
    case finished(CommandResult)
    /// It waits for the backend or the terminal: run this to get its result.
    case waits(@MainActor () async -> CommandResult)
  }

  /// Checks where `invocation` may run and starts it: commands that change state at once run
  /// here, without suspending (most commands of a script); requests come back to be awaited.
  func prepare(_ invocation: Invocation) -> Step {
    let before = viewModel.state
    let spec = invocation.spec
    let input = invocation.input
    if let refusal = spec.availability.refusal(
      signedIn: before.session != nil, screen: before.navigation.screen,
      fields: before.navigation.fields, features: features, field: input.field)
    {
      return .finished(.mistake(refusal.error(command: spec.name, in: context(before))))
    }
    let effect = spec.effect.resolved(on: before.navigation.screen)
    switch effect {
    case .shows(let handler), .edits(let handler):
      // Declared unable to change what is told: no state to compare.
      return .finished(handler(self, input))
    default:
      break
    }
    let outcomes = events.outcomes
    switch effect {
    case .shows, .edits:
      preconditionFailure("handled above")
    case .atOnce(let handler):
      let result = handler(self, input)
      report(since: before, outcomes: outcomes)
      return .finished(result)
    case .request(let handler):
      let storeFailures = events.storeFailures
      return .waits {
        let result = await self.waitingAtTheTerminal { await handler(self, input) }
        self.report(since: before, outcomes: outcomes)
        if self.events.storeFailures != storeFailures, let problem = self.events.lastStoreProblem {
          return .mistake(.storeFailed(problem))
        }
        return result
      }
    case .opens:
      preconditionFailure("resolved effects never open")
    }
  }

  /// Appends the lines telling what changed since `before`. An outcome the backend gave
  /// (`outcomes` moved) is told even when it reads the same as the last one.
  private func report(since before: AuthFlowState, outcomes: Int) {
    let after = viewModel.state
    let answered = events.outcomes != outcomes
    let lines = Renderer.changes(from: before, to: after, answered: answered, style: style)
    if !lines.isEmpty { pendingLines += lines }
  }

  /// Runs `body`, with the terminal's spinner saying what the view model is waiting for.
  private func waitingAtTheTerminal(
    _ body: @escaping @MainActor () async -> CommandResult
  ) async -> CommandResult {
    guard let terminal else { return await body() }
    let task = Task { @MainActor in await body() }
    await terminal.wait(for: task) { [viewModel] in
      viewModel.inFlight.map(Renderer.progress) ?? "working"
    }
    return await task.value
  }
}
