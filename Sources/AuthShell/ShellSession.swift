import AuthFlow
import AuthFlowEmbedded
import GoTrue

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What the terminal adds to a session: unseen input and a spinner that Ctrl-C can stop.
@MainActor
public protocol ShellTerminal: AnyObject {
  /// Reads a line without echoing it; `nil` when the user cancels.
  func readSecret(prompt: String) -> String?
  /// Waits for `task`, showing `label` with a spinner; Ctrl-C cancels the task.
  func wait(for task: Task<Void, Never>, label: String) async
}

/// How a command ended.
public enum CommandResult: Equatable, Sendable {
  /// It ran.
  case done
  /// It asked the shell to end.
  case quit
  /// It could not run: a shell mistake.
  case mistake(ShellError)
  /// An expectation did not hold.
  case failedExpectation(String)
}

/// One shell session: the view model, its backend, and the commands that drive them.
///
/// Commands append the lines they print to ``pendingLines``; the runner decides whether they go
/// to the terminal or into a JSON object.
@MainActor
public final class ShellSession {
  /// The flow being driven.
  public let viewModel: AuthViewModel
  /// The backend under it.
  public let backend: ShellBackend
  /// How output looks.
  public let style: RenderStyle
  /// The terminal, in interactive sessions.
  public weak var terminal: (any ShellTerminal)?
  /// Lines printed by the last command, not yet written.
  public var pendingLines: [String] = []

  let events = EventRing()
  /// The session's "password manager": suggested passwords an account was created with, by
  /// email. In memory only, never printed.
  var savedPasswords: [String: String] = [:]
  /// The last suggested password, until an account is created with it.
  var suggestion: String?

  /// A session on `backend`.
  public init(backend: ShellBackend, style: RenderStyle) {
    self.backend = backend
    self.style = style
    let ring = events
    viewModel = AuthViewModel(service: backend.service, events: AuthEventSink { ring.append($0) })
  }

  /// What decides which commands can run now.
  public var context: ShellContext {
    ShellContext(
      screen: viewModel.navigationState.screen, fields: viewModel.navigationState.fields,
      signedIn: viewModel.session != nil, embeddedBackend: backend.engine != nil,
      backendName: backend.name)
  }

  /// The current time as the backend sees it.
  var now: Date { backend.clock?.now ?? Date() }

  /// Restores the session an earlier run saved, telling the user if one was.
  public func start() async {
    guard backend.restoresSession else { return }
    await viewModel.restoreSession()
    if let session = viewModel.session {
      pendingLines.append(Renderer.success("Signed in as \(session.user.email) (restored)", style))
    }
  }

  /// Runs a command that `runAtOnce` passed on: one that waits for the backend or the terminal.
  func runDeferred(_ command: Command) async -> CommandResult {
    let before = ChangeMarks(viewModel)
    let result: CommandResult
    switch command {
    case .refresh, .signOut, .open, .mailOpen:
      result = await runAction(command)
    default:
      result = await runForm(command)
    }
    report(since: before, action: command.isAction)
    return result
  }

  /// Runs `command` without suspending when it can (most commands of a script), or returns
  /// `nil` for commands that wait for the backend; a rejected command returns its mistake.
  public func runAtOnce(_ spec: CommandSpec, _ command: Command) -> CommandResult? {
    do {
      try CommandParser.check(spec, command, in: context)
    } catch {
      return .mistake(error)
    }
    switch command {
    // Typing into a field never moves the screen or changes a message: no bookkeeping.
    case .set(let field, let value?):
      return setField(field, to: value)
    case .clear(let field):
      viewModel.setValue("", for: field)
      return .done
    case .consent(let accepted):
      viewModel.updateConsent(accepted)
      return .done
    case .signIn where viewModel.navigationState == .choice,
      .create where viewModel.navigationState == .choice, .forgot, .back, .dismiss, .network:
      // These only move between screens, switch the network, or hide messages (never told).
      let screen = viewModel.navigationState.screen
      let network = viewModel.networkStatus
      navigate(command)
      let newScreen = viewModel.navigationState.screen
      if newScreen != screen { pendingLines.append(Renderer.transition(to: newScreen, style)) }
      if viewModel.networkStatus != network {
        pendingLines.append(Renderer.networkLine(viewModel.networkStatus))
      }
      return .done
    case .show, .events, .help, .whoami, .token, .mail, .mailCode, .clockAdvance:
      return runInfo(command)
    case .quit:
      return .quit
    case .expect(let expectation):
      return check(expectation)
    default:
      return nil
    }
  }

  /// Appends the lines telling what changed since `before`.
  func report(since before: ChangeMarks, action: Bool) {
    let after = ChangeMarks(viewModel)
    guard action || after != before else { return }
    pendingLines += Renderer.changes(
      from: before, to: after, email: viewModel.session?.user.email, action: action, style: style)
  }

  /// Runs an async view-model call, with the terminal's spinner when there is one.
  func perform(_ label: String, _ body: @escaping @MainActor () async -> Void) async {
    let task = Task { @MainActor in await body() }
    if let terminal {
      await terminal.wait(for: task, label: label)
    } else {
      await task.value
    }
  }
}

extension Command {
  /// Whether the command asks the backend for something, so its outcome is always told.
  var isAction: Bool {
    switch self {
    case .signIn, .create, .submit, .resend, .refresh, .signOut, .open, .mailOpen: true
    default: false
    }
  }
}
