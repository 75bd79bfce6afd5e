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

/// How a session reaches the person running it, beyond the lines commands print.
@MainActor
final class ShellIO {
  /// The terminal, in interactive sessions.
  weak var terminal: (any ShellTerminal)?
  /// How a script run at a terminal asks for a secret its environment lacks (`set password
  /// $NAME` with `NAME` unset); interactive sessions ask through ``terminal``.
  var asksForSecrets: (@MainActor (String) -> String?)?
  /// Whether output that machines keep (`--json`) is being written: then even the outbox's
  /// codes and links, which a person reading the screen is shown, are masked.
  var masksCodes = false
  /// The values read from the environment, which output shows as their `$NAME`.
  let masks = EnvironmentMasks()
}

/// The session's password manager: the passwords accounts were created with, by email. Like
/// a phone's, it outlives the app's session (signing out keeps it) and forgets an account that
/// is deleted. In memory only, for this run of the shell; never printed.
struct PasswordManager {
  /// The saved passwords, by normalized email.
  private(set) var saved: [String: String] = [:]

  /// Saves `password` for `email`, replacing what was saved for it.
  mutating func save(_ password: String, for email: String) {
    saved[AuthValidation.normalizedEmail(email)] = password
  }

  /// Forgets what was saved for `email`.
  mutating func forget(_ email: String) {
    saved[AuthValidation.normalizedEmail(email)] = nil
  }
}

/// One shell session: the view model, its backend, and the commands that drive them. Commands
/// return what they print (``CommandOutput``); what watches the session's steps (coverage, a
/// recording) is in ``observers``, and how it reaches its user in ``io``.
@MainActor
final class ShellSession {
  /// The flow being driven.
  let viewModel: AuthViewModel
  /// The backend under it.
  let backend: ShellBackend
  /// How output looks.
  let style: RenderStyle
  /// The analytics events so far.
  let events = EventRing()
  /// The session's password manager.
  var passwords = PasswordManager()
  /// The environment, which `set <field> $NAME` reads.
  var environment: [String: String] = [:]
  /// The terminal and the ways of asking for a secret.
  let io = ShellIO()
  /// What watches each step: coverage, and the recording under way.
  let observers = ShellObservers()
  /// The app's connection to the backend, which `network unreachable` cuts.
  let link: NetworkLink

  /// A session on `backend`.
  init(backend: ShellBackend, style: RenderStyle) {
    self.backend = backend
    self.style = style
    let ring = events
    let coverage = observers.coverage
    let clock = backend.shellClock
    link = NetworkLink(mailbox: backend.mailbox)
    viewModel = AuthViewModel(
      service: backend.service, link: link,
      events: AuthEventSink {
        ring.append($0)
        coverage.coverage?.record(events: [$0])
      },
      now: { clock?.now ?? Date() })
  }

  /// What decides which commands can run now.
  var context: ShellContext { context(viewModel.state) }

  private func context(_ state: AuthFlowState) -> ShellContext {
    ShellContext(
      screen: state.navigation.screen, fields: state.navigation.fields,
      signedIn: state.session != nil, features: backend.features, backend: backend.kind)
  }

  /// The current time as the backend sees it.
  var now: Date { backend.now }

  /// Restores the session an earlier run saved; the lines telling the user if one was.
  func start() async -> [String] {
    guard backend.restoresSession else { return [] }
    await viewModel.restoreSession()
    if let session = viewModel.session {
      let email = TerminalText.visible(session.user.email)
      return [Renderer.success("Signed in as \(email) (restored)", style)]
    } else if let error = viewModel.errorMessage {
      return [Renderer.errorLine("The saved session could not be restored: \(error)", style)]
    }
    return []
  }

  /// Renews the session before a command when its access token is about to expire, so no
  /// command sees an expired session as signed in; prints nothing unless it ends the session.
  func renewSessionIfDue() async -> [String] {
    let before = viewModel.state
    await viewModel.renewSessionIfDue()
    guard before.session != nil, viewModel.session == nil else { return [] }
    observers.coverage.coverage?.recordSessionEnded(from: before, to: viewModel.state)
    return Renderer.changes(from: before, to: viewModel.state, answered: true, style: style)
  }

  /// While the screen waits for the signed-in user to verify their email: checks again, and
  /// tells what changed ("Your email is verified."), or nothing.
  func recheckEmailVerification() async -> [String] {
    let before = Renderer.Told(viewModel.state)
    let outcomes = events.outcomes
    guard await viewModel.recheckEmailVerification() else { return [] }
    return changes(since: before, outcomes: outcomes)
  }

  /// How a command runs.
  enum Step {
    /// It ran at once.
    case finished(CommandOutput)
    /// It waits for the backend or the terminal: run this to get its output.
    case waits(@MainActor () async -> CommandOutput)
  }

  /// Checks where `invocation` may run and starts it: commands that change state at once run
  /// here, without suspending (most commands of a script); requests come back to be awaited.
  /// Its output ends with the lines telling what changed.
  func prepare(_ invocation: Invocation) -> Step {
    let spec = invocation.spec
    let input = invocation.input
    let screen = viewModel.state.navigation.screen
    if let refusal = spec.availability.refusal(
      signedIn: viewModel.isLoggedIn, screen: screen,
      fields: viewModel.state.navigation.fields, features: backend.features, field: input.field)
    {
      return .finished(.mistake(refusal.error(command: spec.name, in: context(viewModel.state))))
    }
    switch spec.effect.resolved(on: screen) {
    case .shows(let handler), .edits(let handler):
      // Declared unable to change what is told: no state to compare.
      return .finished(handler(self, input))
    case .atOnce(let handler):
      // What the lines after the command compare, not the whole state.
      let before = Renderer.Told(viewModel.state)
      let outcomes = events.outcomes
      var output = handler(self, input)
      output.append(changes(since: before, outcomes: outcomes))
      return .finished(output)
    case .request(let handler):
      let before = Renderer.Told(viewModel.state)
      let outcomes = events.outcomes
      return .waits {
        var output = await self.waitingAtTheTerminal { await handler(self, input) }
        output.append(self.changes(since: before, outcomes: outcomes))
        return output
      }
    }
  }

  /// The lines telling what changed since `before`. An outcome the backend gave (`outcomes`
  /// moved) is told even when it reads the same as the last one.
  private func changes(since before: Renderer.Told, outcomes: Int) -> [String] {
    let answered = events.outcomes != outcomes
    return Renderer.changes(from: before, to: viewModel.state, answered: answered, style: style)
  }

  /// Runs `body`, with the terminal's spinner saying what the view model is waiting for.
  private func waitingAtTheTerminal(
    _ body: @escaping @MainActor () async -> CommandOutput
  ) async -> CommandOutput {
    guard let terminal = io.terminal else { return await body() }
    let task = Task { @MainActor in await body() }
    await terminal.wait(for: task) { [viewModel] in
      viewModel.inFlight.map(Renderer.progress) ?? "working"
    }
    return await task.value
  }
}
