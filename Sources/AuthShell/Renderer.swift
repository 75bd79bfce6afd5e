import AuthFlow

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// How output looks: decided once, at the edge.
struct RenderStyle: Equatable, Sendable {
  /// ANSI colour.
  var colour: Bool
  /// Words instead of symbols, for screen readers and plain terminals.
  var plain: Bool

  /// No colour, symbols: scripts and transcripts.
  static let script = RenderStyle(colour: false, plain: false)

  /// What a masked secret shows as.
  var mask: String { plain ? Redaction.plainMask : Redaction.mask }

  func paint(_ text: String, _ code: String) -> String {
    colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }
}

/// Pure functions from state to text: prompt, titles, what changed, and the whole screen.
enum Renderer {
  /// The title of `screen`, as the app's navigation bar shows it.
  static func title(_ screen: AuthScreen) -> String {
    switch screen {
    case .choice: "Welcome"
    case .login: "Sign In"
    case .signup: "Create Account"
    case .resetRequest: "Forgot Password"
    case .resetVerify: "Reset Password"
    }
  }

  /// The prompt: the state, its detail, and flags, e.g. `signup(consent off)> `.
  ///
  /// Colour codes are wrapped in `marker` characters so the line editor can skip them when it
  /// measures the prompt.
  static func prompt(
    _ state: AuthFlowState, label: String?, style: RenderStyle, marker: Character = "\u{1}"
  ) -> String {
    func paint(_ text: String, _ code: String) -> String {
      style.colour ? "\(marker)\u{1B}[\(code)m\(marker)\(text)\(marker)\u{1B}[0m\(marker)" : text
    }
    var text = label.map { paint($0, "35") + " " } ?? ""
    if let session = state.session {
      text += paint("signed-in", "1;32") + "(\(TerminalText.visible(session.user.email)))"
    } else {
      text += paint(state.navigation.screen.rawValue, "1;36")
      switch state.navigation {
      case .signup(let consent): text += "(consent \(consent ? "on" : "off"))"
      case .resetVerify(let email): text += "(\(TerminalText.visible(email)))"
      case .choice, .login, .resetRequest: break
      }
    }
    if state.network == .offline { text += " " + paint("[offline]", "33") }
    return text + "> "
  }

  /// When the user's email was confirmed, "yes" when the backend does not say when
  /// (Firebase), or "no".
  static func confirmation(of user: AuthUser) -> String {
    user.emailConfirmedAt.map(timestamp) ?? (user.emailVerified ? "yes" : "no")
  }

  /// What is happening while `action` is in flight, for the spinner.
  static func progress(_ action: AuthAction) -> String {
    switch action {
    case .signIn: "signing in"
    case .signUp: "creating the account"
    case .resetRequest: "sending the code"
    case .resetVerify: "setting the new password"
    case .checkResetCode: "checking the reset link"
    case .resendConfirmation: "sending the email"
    case .confirmEmail: "confirming the email"
    case .refresh: "refreshing the session"
    case .restoreSession: "restoring the session"
    case .signOut: "signing out"
    case .deleteAccount: "deleting the account"
    case .changePassword: "changing the password"
    }
  }

  /// What ``changes(from:to:answered:style:)`` compares of the state before a command: taken
  /// instead of the whole state, whose copy costs more than most commands of a script.
  struct Told {
    var screen: AuthScreen
    /// The session's refresh token; nil while signed out.
    var refreshToken: String?
    var network: NetworkStatus
    var message: AuthMessage?

    init(_ state: AuthFlowState) {
      screen = state.navigation.screen
      refreshToken = state.session?.refreshToken
      network = state.network
      message = state.message
    }
  }

  /// The lines telling what a command changed. When the backend answered (`answered`), the
  /// error or banner it left is told even when it reads the same as before.
  static func changes(
    from before: AuthFlowState, to after: AuthFlowState, answered: Bool, style: RenderStyle
  ) -> [String] {
    changes(from: Told(before), to: after, answered: answered, style: style)
  }

  /// The lines telling what changed since `before` was told.
  static func changes(
    from before: Told, to after: AuthFlowState, answered: Bool, style: RenderStyle
  ) -> [String] {
    var lines: [String] = []
    if after.navigation.screen != before.screen {
      lines.append(transition(to: after.navigation.screen, style))
    }
    // The refresh token identifies a session version: it rotates on every refresh, while the
    // access token can come out the same under a fixed clock.
    switch (before.refreshToken, after.session?.refreshToken) {
    case (nil, _?):
      let email = TerminalText.visible(after.session?.user.email ?? "")
      lines.append(success("Signed in as \(email)", style))
    case (_?, nil) where after.errorMessage == nil:
      // A session that ended on an error (revoked, expired) is told by the error alone.
      lines.append(success("Signed out", style))
    case (let old?, let new?) where old != new:
      lines.append(success("Session refreshed", style))
    default:
      break
    }
    if after.network != before.network { lines.append(networkLine(after.network)) }
    if after.message != before.message || answered {
      switch after.message {
      case .error(let text): lines.append(errorLine(text, style))
      case .banner(let banner): lines.append(bannerLine(banner, style))
      case nil: break
      }
    }
    return lines
  }

  /// `→ Title`: a new screen came into view.
  static func transition(to screen: AuthScreen, _ style: RenderStyle) -> String {
    style.plain ? "screen: \(title(screen))" : style.paint("→ \(title(screen))", "1")
  }

  /// `network: offline`: the simulated network was switched.
  static func networkLine(_ status: NetworkStatus) -> String {
    "network: \(status.rawValue)"
  }

  /// `✗ message`, or `error: message` in plain style.
  static func errorLine(_ message: String, _ style: RenderStyle) -> String {
    style.plain ? "error: \(message)" : style.paint("✗ \(message)", "31")
  }

  /// `[kind] message`.
  static func bannerLine(_ banner: AuthBanner, _ style: RenderStyle) -> String {
    let code =
      switch banner.kind {
      case .info: "36"
      case .success: "32"
      case .warning: "33"
      }
    return style.paint("[\(banner.kind.rawValue)] \(banner.message)", code)
  }

  static func success(_ text: String, _ style: RenderStyle) -> String {
    style.plain ? text : style.paint("✓ \(text)", "32")
  }

  /// The whole screen: title, fields (secrets masked), buttons enabled or not, banner, error.
  static func screen(_ state: AuthFlowState, label: String?, style: RenderStyle, now: Date)
    -> [String]
  {
    var lines = label.map { ["Backend: \($0)"] } ?? []
    if let session = state.session {
      return lines + signedIn(session, state: state, style: style, now: now)
    }
    let screen = state.navigation.screen
    lines.append(style.paint(title(screen), "1"))
    if let note = Self.note(state, email: TerminalText.visible) { lines.append("  " + note) }
    for field in state.navigation.fields {
      let value = state.form[field]
      let shown =
        value.isEmpty ? "(empty)" : field.isSecret ? style.mask : TerminalText.visible(value)
      lines.append(row(Self.label(of: field, on: screen), shown))
      // A screen reader hears every control as the app announces it (seed 002 scenario 10).
      if style.plain { lines.append(spoken(AuthControl.field(field).accessibility(on: screen))) }
    }
    if case .signup(let consent) = state.navigation {
      lines.append(
        row((consent ? "[x] " : "[ ] ") + consentLabel, CommandTable.consent.spec.usage))
      if style.plain {
        lines.append(
          spoken(AuthControl.consent.accessibility(on: screen), value: consent ? "on" : "off"))
      }
    }
    lines += buttons(at: .screen(screen), state: state, style: style)
    return lines + footer(state, style)
  }

  /// A field's label on `screen`: the password of the reset form is the new one.
  static func label(of field: AuthField, on screen: AuthScreen) -> String {
    screen == .resetVerify && field == .password ? "New password" : field.label
  }

  /// The signup screen's consent switch, as the screen labels it.
  static let consentLabel = "I accept the terms"

  /// What the reset form says above its fields, the address shown through `email`; `nil` on
  /// other screens. Whether the account exists is not for this screen to say.
  static func note(_ state: AuthFlowState, email shown: (String) -> String) -> String? {
    guard case .resetVerify(let email) = state.navigation else { return nil }
    let what = state.resetCodeFormat == .link ? "a reset link" : "a 6-digit code"
    return email.isEmpty
      ? "Open the reset link from your email."
      : "If an account exists for \(shown(email)), we sent it \(what)."
  }

  /// The buttons at `place`, each with its command; the submit button says whether it is
  /// enabled, and in plain style every button is announced under its row.
  private static func buttons(at place: Button.Place, state: AuthFlowState, style: RenderStyle)
    -> [String]
  {
    var lines: [String] = []
    for (button, command) in CommandTable.buttons(at: place) {
      let status =
        button.submits ? state.submitBlocker.map { "disabled: \(reason($0))" } ?? "enabled" : ""
      lines.append(row("[\(button.label)]", command, status))
      if style.plain {
        let summary = CommandTable.spec(named: command)?.summary ?? ""
        lines.append(
          spoken(
            button.accessibility(summary: summary), enabled: !button.submits || state.canSubmit))
      }
    }
    return lines
  }

  /// A control as a screen reader announces it, in brackets under its row.
  private static func spoken(
    _ control: AccessibilityDescription, value: String? = nil, enabled: Bool = true
  ) -> String {
    "    (\(control.announcement(value: value, enabled: enabled)))"
  }

  private static func signedIn(
    _ session: AuthSession, state: AuthFlowState, style: RenderStyle, now: Date
  ) -> [String] {
    var lines = [style.paint(signedInTitle, "1")]
    lines += sessionRows(session, now: now).map { row($0.label, TerminalText.visible($0.value)) }
    lines += buttons(at: .signedIn, state: state, style: style)
    return lines + footer(state, style)
  }

  /// The signed-in screen's title.
  static let signedInTitle = "Signed in"

  /// What the signed-in screen shows of the session, row by row (never a token).
  static func sessionRows(_ session: AuthSession, now: Date) -> [(label: String, value: String)] {
    [
      ("Email", session.user.email), ("User ID", session.user.id),
      ("Email confirmed", confirmation(of: session.user)),
      ("Session expires", expiry(session.expiresAt, now: now)),
    ]
  }

  /// The network, and the message on show.
  private static func footer(_ state: AuthFlowState, _ style: RenderStyle) -> [String] {
    var lines: [String] = []
    if state.network == .offline { lines.append("  network: offline") }
    switch state.message {
    case .banner(let banner): lines.append("  " + bannerLine(banner, style))
    case .error(let text): lines.append("  " + errorLine(text, style))
    case nil: break
    }
    return lines
  }

  /// Why submit is disabled, in words.
  static func reason(_ blocker: SubmitBlocker) -> String {
    switch blocker {
    case .noForm: "no form on this screen"
    case .signedIn: "already signed in"
    case .inFlight(let action): progress(action)
    case .offline: "offline"
    case .missing(let field): "\(field.label.lowercased()) is empty"
    case .invalid(let issue): issue.message
    case .consentRequired: "accept the terms first (consent on)"
    }
  }

  static func row(_ label: String, _ value: String, _ status: String = "") -> String {
    var line = "  "
    line.reserveCapacity(2 + 26 + value.utf8.count + 10 + status.utf8.count)
    append(label, paddedTo: 26, to: &line)
    if status.isEmpty {
      line += value
    } else {
      append(value, paddedTo: 10, to: &line)
      line += status
    }
    return line
  }

  /// `text` followed by spaces up to `width` columns, and at least one space.
  static func pad(_ text: String, _ width: Int) -> String {
    var padded = ""
    append(text, paddedTo: width, to: &padded)
    return padded
  }

  private static let spaces = String(repeating: " ", count: 64)

  private static func append(_ text: String, paddedTo width: Int, to line: inout String) {
    line += text
    line += Substring(spaces.utf8.prefix(min(64, max(1, width - text.count))))
  }

  /// ISO 8601 in UTC, e.g. `2025-01-01T00:00:00Z`.
  static func timestamp(_ date: Date) -> String {
    date.formatted(.iso8601)
  }

  /// `in 59m 30s (…)`, `in 2d 3h (…)`, or `expired 5m 0s ago`.
  static func expiry(_ date: Date, now: Date) -> String {
    let interval = date.timeIntervalSince(now).rounded()
    // Ten thousand years either way is more than any session; it keeps the Int below in range.
    let seconds = Int(max(min(interval, 315_360_000_000), -315_360_000_000))
    let text = duration(abs(seconds))
    return seconds > 0 ? "in \(text) (\(timestamp(date)))" : "expired \(text) ago"
  }

  /// The two largest units of a number of seconds: `45s`, `59m 30s`, `5h 0m`, `2d 3h`.
  static func duration(_ seconds: Int) -> String {
    switch seconds {
    case ..<60: "\(seconds)s"
    case ..<3_600: "\(seconds / 60)m \(seconds % 60)s"
    case ..<86_400: "\(seconds / 3_600)h \(seconds % 3_600 / 60)m"
    default: "\(seconds / 86_400)d \(seconds % 86_400 / 3_600)h"
    }
  }
}
