import AuthFlow
import GoTrueEngine

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Turns the commands of a session into a script: each command that ran as a line, secrets as
/// environment variables, and after each command that changed something the `expect` lines
/// that pin what was seen. What the exploration relied on that a fresh store lacks (an account
/// made before the recording began, the screen it began on) is written as steps at the top.
///
/// It holds the secrets typed while recording in memory, to replay the file when it stops;
/// they never reach the file.
@MainActor
final class ScriptRecorder {
  /// How the recording was asked for, and what it knows of the session.
  struct Setup: Sendable {
    /// The file written.
    var path: String
    /// Whether the replay's transcript is saved beside it.
    var transcript: Bool
    /// The options of its `#!` line.
    var options: [String]
    /// The backend's name, for the header.
    var backendName: String
    /// Whether replays make their accounts from nothing (the embedded backend on a fresh
    /// store): then steps that make what the exploration relied on are written, time that
    /// passed at the prompt becomes `clock advance`, and the demo accounts can be relied on.
    var freshStore: Bool
    /// Whether new accounts are signed in at once (`--autoconfirm`).
    var autoconfirm: Bool
    /// The day it began, as the header says it (`2026-11-22`).
    var day: String
    /// authflow's version.
    var version: String
  }

  /// What one command did, as the recorder needs it: the step, and what the outbox held.
  struct Step {
    /// The step as the session's observers see it.
    var record: StepRecord
    /// For `set code` and `open`: the newest code, or link, the outbox holds for the address
    /// on show, when there is an outbox; it tells a code or link that can be replayed with
    /// `mail code` or `mail open` from one that cannot.
    var newestCode: String?
    var newestLink: String?
    /// Whether the backend has an outbox.
    var hasOutbox: Bool
  }

  let setup: Setup
  /// How a recording's header begins its second line, which tells a recording from a file a
  /// person wrote (that one is never replaced).
  static let mark = "# Recorded with authflow"
  /// Where the recording began.
  let start: AuthFlowState
  /// How many commands, and how many checks, are recorded.
  private(set) var commandCount = 0
  private(set) var checkCount = 0

  private(set) var body: [Line] = []
  /// The checks written after the last command, which a typed `expect` need not repeat.
  private var trailingChecks: [[String]] = []
  private(set) var secrets: [Secret] = []
  /// Accounts made while recording.
  private var made: Set<String> = []
  /// Accounts whose password the exploration reset.
  private var reset: Set<String> = []
  /// Accounts the exploration relied on that it did not make, in the order it met them.
  private(set) var relied: [Account] = []
  private var lastTime: Date?
  /// The variables typed as `set <field> $NAME`, with the value each gave.
  private(set) var named: [(name: String, field: AuthField, value: String)] = []

  /// The values read from the environment: the file names their variables, never the values.
  let masks: EnvironmentMasks

  init(setup: Setup, start: AuthFlowState, now: Date, masks: EnvironmentMasks = EnvironmentMasks())
  {
    self.setup = setup
    self.start = start
    self.masks = masks
    lastTime = now
    if let session = start.session {
      let email = AuthValidation.normalizedEmail(session.user.email)
      if !isDemo(email) {
        relied.append(
          Account(
            email: email, confirmed: true, secret: secret(value: nil, for: email),
            passwordKnown: false))
      }
    }
    noteSecrets(in: start)
  }

  /// A line of the script.
  enum Line {
    /// A command, written as its parsed form shows it.
    case command(Invocation)
    /// A comment, or a command as written (a demo account's published password).
    case text(String)
    /// `set <field>` with the secret `index` as its value.
    case secret(AuthField, index: Int)
    /// `change-password` with the secret `index` as the new password.
    case newPassword(index: Int)
    /// `expect …`.
    case check([String])
  }

  /// A secret typed while recording (or one the replay makes up, for an account made before).
  struct Secret {
    /// What was typed; `nil` when the exploration never saw it.
    var value: String?
    /// The addresses it went with, first first: the variable is named after the first.
    var emails: [String] = []
    /// Whether it is a code rather than a password.
    var isCode = false
    /// What the exploration learnt of it.
    var role = Role.typed

    enum Role {
      /// Typed; nothing told whether an account has it.
      case typed
      /// An account's password: it signed up, or signed in, with it.
      case account
      /// Refused at sign-in: a wrong password; or a code other than the one sent.
      case wrong
      /// The new password a reset set.
      case new
    }
  }

  /// An account the exploration relied on and did not make.
  struct Account {
    var email: String
    var confirmed: Bool
    /// Its password.
    var secret: Int
    /// Whether the exploration signed in with that password (else it is a guess, or made up).
    var passwordKnown: Bool
  }

  // MARK: Recording

  /// Records `step`: its line when it ran, and the checks of what it changed.
  func record(_ step: Step) {
    let spec = step.record.invocation.spec
    let role = step.record.invocation.input.role
    guard role != .notRecorded else { return }
    switch step.record.result {
    case .mistake, .failedExpectation, .quit: return
    case .done: break
    }
    if step.record.events.contains(where: {
      if case .failed(_, .cancelled) = $0 { true } else { false }
    }) {
      return
    }
    if case .check(let expectation) = role {
      recordCheck(expectation)
      return
    }
    if setup.freshStore, !spec.movesClock, let lastTime {
      let passed = Int(step.record.startedAt.timeIntervalSince(lastTime))
      if passed >= Self.noticeableWait {
        let wait = TypedDuration(seconds: Double(passed), text: Self.duration(passed))
        body.append(.command(CommandTable.clock.invocation(wait)))
      }
    }
    lastTime = step.record.endedAt
    guard let line = line(for: step) else {
      body.append(
        .text("# open <link> is left out: its link holds a one-time code; mail open follows one"))
      return
    }
    body.append(line)
    commandCount += 1
    if case .fill(.variable(let field, let name)) = role,
      !named.contains(where: { $0.name == name })
    {
      named.append((name, field, step.record.after.form[field]))
    }
    trailingChecks = []
    noteSecrets(in: step.record.after)
    noteAccounts(step)
    for check in checks(from: step).compactMap(replayable) {
      body.append(.check(check))
      trailingChecks.append(check)
      checkCount += 1
    }
  }

  /// A pause at the prompt this long (a minute, the wait between emails to one address) is
  /// written as `clock advance`, so a replay sees the time pass as the exploration did.
  private static let noticeableWait = 60

  /// A typed `expect`: written unless a check after the last command says the same; one on a
  /// secret field cannot be written without its value, so it is left out.
  private func recordCheck(_ expectation: Expectation) {
    if case .field(let field, _) = expectation, field.isSecret { return }
    guard let words = replayable(expectation.displayWords) else { return }
    // `expect signed-in` says less than the `expect signed-in ada@example.com` written.
    guard !trailingChecks.contains(where: { $0.starts(with: words) }) else { return }
    body.append(.check(words))
    trailingChecks.append(words)
    checkCount += 1
  }

  /// The script line for `step`, or `nil` for a link that cannot be replayed.
  private func line(for step: Step) -> Line? {
    let invocation = step.record.invocation
    switch invocation.input.role {
    case .fill(.value(let field, _)) where field.isSecret,
      .fill(.ask(let field)) where field.isSecret:
      let value = step.record.after.form[field]
      if field == .otp {
        if let newest = step.newestCode, newest == value {
          return .command(CommandTable.mail.invocation(.code))
        }
        // Any other code is a secret too (an older one, one from another email may still open
        // an account): it is read from the environment. With an outbox, it is not the one sent.
        let index = secret(value: value, for: step.record.after.addressOnShow, code: true)
        if step.hasOutbox, secrets[index].role == .typed { secrets[index].role = .wrong }
        return .secret(field, index: index)
      }
      if Self.demoPasswords.contains(value) {
        return .text(Lexer.line([CommandTable.set.spec.name, field.commandName, value]))
      }
      return .secret(field, index: secret(value: value, for: step.record.after.addressOnShow))
    case .newPassword(.value(_, let value)):
      let index = secret(value: value, for: step.record.before.session?.user.email ?? "")
      secrets[index].role = .new
      return .newPassword(index: index)
    case .newPassword(.ask):
      // Typed unseen: the replay's own new password, from the environment.
      let index = secret(value: nil, for: step.record.before.session?.user.email ?? "")
      secrets[index].role = .new
      return .newPassword(index: index)
    case .link(let link):
      guard let newest = step.newestLink, newest == link else { return nil }
      return .command(CommandTable.mail.invocation(.open))
    default:
      return .command(invocation)
    }
  }

  /// The checks that pin what `step` changed, as the shell told it: the screen, the session,
  /// the error or banner (told again when the backend answered the same), and whether the form
  /// can be sent when only the form changed.
  private func checks(from step: Step) -> [[String]] {
    let (before, after) = (step.record.before, step.record.after)
    var checks: [[String]] = []
    let screenChanged = after.navigation.screen != before.navigation.screen
    if screenChanged { checks.append(["state", after.navigation.screen.rawValue]) }
    switch (before.session, after.session) {
    case (nil, let session?): checks.append(["signed-in", session.user.email])
    case (_?, nil): checks.append(["signed-out"])
    default: break
    }
    let answered = step.record.events.contains {
      switch $0 {
      case .succeeded, .failed: true
      case .screenViewed, .submitted, .sessionChanged: false
      }
    }
    // What goes with a new screen or session (a cleared message, a form that cannot be sent
    // yet) is told by that check; the rest is pinned where it changed alone.
    let stayed = !screenChanged && (before.session == nil) == (after.session == nil)
    if after.message != before.message || answered {
      switch after.message {
      case .error(let text): checks.append(["error", text])
      case .banner(let banner): checks.append(["banner", banner.message])
      case nil where stayed && before.message != nil:
        checks.append(before.errorMessage != nil ? ["no-error"] : ["no-banner"])
      case nil: break
      }
    }
    if stayed, !answered, after.session == nil, after.canSubmit != before.canSubmit {
      checks.append(["can-submit", after.canSubmit ? "yes" : "no"])
    }
    return checks
  }

  /// `check` as the file can hold it: one holding a value read from the environment is not
  /// written (a replay compares words, not `$NAME`), except `signed-in`, without its address.
  private func replayable(_ check: [String]) -> [String]? {
    guard check.dropFirst().contains(where: masks.covers) else { return check }
    return check.first == "signed-in" ? ["signed-in"] : nil
  }

  /// Keeps each secret now in the form's password fields, with the address it goes with.
  private func noteSecrets(in state: AuthFlowState) {
    for field in [AuthField.password, .confirmPassword] {
      let value = state.form[field]
      guard !value.isEmpty, !Self.demoPasswords.contains(value) else { continue }
      _ = secret(value: value, for: state.addressOnShow)
    }
  }

  /// Notes which accounts the step made, and which it relied on that it did not make.
  private func noteAccounts(_ step: Step) {
    let address = step.record.before.addressOnShow
    guard !address.isEmpty else { return }
    let password = step.record.before.form.password
    for event in step.record.events {
      switch event {
      case .succeeded(.signUp), .succeeded(.signIn):
        mark(password, .account)
      case .failed(.signIn, .service(.invalidCredentials)):
        mark(password, .wrong)
      case .succeeded(.resetVerify):
        mark(password, .new)
      default:
        break
      }
      switch event {
      case .succeeded(.signUp):
        made.insert(address)
      case .succeeded(.signIn), .failed(.signIn, .service(.emailUnverified)):
        // GoTrue checks the password before it tells an unconfirmed account.
        rely(on: address, confirmed: event == .succeeded(.signIn), password: password, known: true)
      case .failed(.signUp, .service(.duplicateEmail)), .succeeded(.resetVerify),
        .failed(.resetRequest, .service(.rateLimited)),
        .failed(.resetRequest, .service(.retryAfter)):
        // An email went out to the address (so it has an account), or the account is there.
        rely(on: address, confirmed: true, password: nil, known: false)
      case .succeeded(.confirmEmail), .failed(.resendConfirmation, .service(.rateLimited)),
        .failed(.resendConfirmation, .service(.retryAfter)):
        rely(on: address, confirmed: false, password: nil, known: false)
      default:
        break
      }
      // After a reset, a sign-in tells the new password, not the one the account was made with.
      if event == .succeeded(.resetVerify) { reset.insert(address) }
    }
    // A reset code found in the outbox went to an account.
    if step.record.invocation.spec.readsOutbox || step.newestCode != nil,
      step.record.after.form.otpCode != step.record.before.form.otpCode
    {
      rely(on: address, confirmed: true, password: nil, known: false)
    }
  }

  /// Notes what the exploration learnt of the secret `value`: what a success told stays.
  private func mark(_ value: String, _ role: Secret.Role) {
    guard let index = secrets.firstIndex(where: { $0.value == value }),
      secrets[index].role == .typed || (secrets[index].role == .wrong && role != .wrong)
    else { return }
    secrets[index].role = role
  }

  /// Notes that the exploration relied on `email` existing; a password it signed in with
  /// replaces one made up before.
  private func rely(on email: String, confirmed: Bool, password: String?, known: Bool) {
    guard !made.contains(email), !isDemo(email) else { return }
    let value = password.flatMap { $0.isEmpty || Self.demoPasswords.contains($0) ? nil : $0 }
    if let index = relied.firstIndex(where: { $0.email == email }) {
      guard known, !relied[index].passwordKnown, !reset.contains(email), let value else { return }
      relied[index].secret = secret(value: value, for: email)
      relied[index].passwordKnown = true
      secrets[relied[index].secret].role = .account
      return
    }
    relied.append(
      Account(
        email: email, confirmed: confirmed, secret: secret(value: value, for: email),
        passwordKnown: known && value != nil))
    secrets[relied[relied.count - 1].secret].role = .account
  }

  /// The index of the secret `value` (a new one when `nil`), noting `email` with it.
  private func secret(value: String?, for email: String, code: Bool = false) -> Int {
    let index: Int
    if let value, let found = secrets.firstIndex(where: { $0.value == value }) {
      index = found
    } else {
      secrets.append(Secret(value: value, isCode: code))
      index = secrets.count - 1
    }
    if !email.isEmpty, !secrets[index].emails.contains(email) {
      secrets[index].emails.append(email)
    }
    return index
  }

  private func isDemo(_ email: String) -> Bool {
    setup.freshStore && Self.demoEmails.contains(email)
  }

  private static let demoEmails: Set<String> = [
    DemoAccounts.confirmed.email, DemoAccounts.unconfirmed.email,
  ]
  /// The demo accounts' passwords, published in the README: written as they are.
  static let demoPasswords: Set<String> = [
    DemoAccounts.confirmed.password, DemoAccounts.unconfirmed.password,
  ]
}
