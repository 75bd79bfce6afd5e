import AuthCrypto
import AuthFlow
import GoTrue

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension ShellSession {
  /// `show`: the whole screen.
  func show() -> [String] {
    Renderer.screen(viewModel.state, label: backend.label, style: style, now: now)
  }

  /// `events`: the analytics events so far.
  func listEvents() -> [String] {
    let numbered = events.numbered
    if numbered.isEmpty { return ["No events yet."] }
    return numbered.map { number, event in
      let properties = event.properties.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
      return "\(number). \(event.name) \(properties)"
    }
  }

  /// `help [command]`.
  func help(_ command: CommandSpec?) -> [String] {
    command.map(HelpText.details) ?? HelpText.overview(context)
  }

  /// `expect …`.
  func check(_ expectation: Expectation) -> CommandOutput {
    CommandOutput(
      result: expectation.failure(in: viewModel.state).map(CommandResult.failedExpectation)
        ?? .done)
  }

  /// `delete-account [confirm]`: without `confirm`, says what would be deleted and how to go
  /// ahead (the app's confirmation step); with it, deletes.
  func deleteAccount(confirmed: Bool) async -> CommandOutput {
    guard confirmed else {
      let email = TerminalText.visible(viewModel.session?.user.email ?? "")
      let confirm = CommandTable.deleteAccount.invocation(true).displayText
      return .printed([
        "This deletes the account \(email) and everything kept with it; it cannot be undone."
          + " To go ahead: \(confirm)"
      ])
    }
    let email = viewModel.session?.user.email
    let outcome = await viewModel.deleteAccount()
    if outcome.succeeded, let email { forgetLocalData(of: email) }
    return .told(outcome)
  }

  /// `reload`: renews the tokens, which carry the current verification, and says it.
  func reload() async -> CommandOutput {
    let outcome = await viewModel.refreshSession()
    guard outcome.succeeded, let user = viewModel.session?.user else { return .told(outcome) }
    return .printed(["email_verified: \(user.emailVerified)"])
  }

  /// `signout`: ends the session. The outbox stays as it is: it is the user's inbox, which
  /// signing out of an app does not empty; and the password manager keeps the password, which
  /// belongs to the device, not to the app's session, and the next sign-in offers it.
  func signOut() async -> AuthOutcome {
    await viewModel.signOut()
  }

  /// After `delete-account`: the account is gone, so the password manager forgets it too (the
  /// inbox keeps its emails, whose links now lead nowhere).
  private func forgetLocalData(of email: String) {
    passwords.forget(AuthValidation.normalizedEmail(email))
  }

  /// `clear` alone: at a terminal, the screen cleared (and its scrollback) with the cursor at
  /// the top, as `clear(1)` does; a script has no screen, so it prints nothing.
  func clearScreen() -> CommandOutput {
    guard io.terminal != nil else { return .done }
    return .printed(["\u{1B}[H\u{1B}[2J\u{1B}[3J\u{1B}[H"])
  }

  /// `whoami`.
  func whoami() -> [String] {
    guard let session = viewModel.session else { return [] }
    var lines = [
      TerminalText.visible(session.user.email),
      "  user id: \(TerminalText.visible(session.user.id))",
      "  email confirmed: \(Renderer.confirmation(of: session.user))",
      "  email_verified: \(session.user.emailVerified)",
      "  session expires: \(Renderer.expiry(session.expiresAt, now: now))",
    ]
    // What the app stored with the account (names, the consent and when), sorted by key.
    for (key, value) in session.user.metadata.sorted(by: { $0.key < $1.key }) {
      lines.append("  \(TerminalText.visible(key)): \(TerminalText.visible(value))")
    }
    return lines
  }

  /// `token`: the access token's header and claims, decoded; the signature and the refresh
  /// token are never shown.
  func showToken() -> [String] {
    guard let session = viewModel.session else { return [] }
    // The Firebase emulator's ID tokens are unsigned: their third part is empty.
    let parts = session.accessToken.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let payload = Base64URL.decode(parts[1]),
      let claims = try? JSONDecoder().decode([String: JSONValue].self, from: Data(payload))
    else {
      return [
        "The access token is not a JWT; it expires \(Renderer.expiry(session.expiresAt, now: now))."
      ]
    }
    var lines = ["Access token (JWT, signature hidden):"]
    for key in claims.keys.sorted() {
      guard let value = claims[key] else { continue }
      let text: String
      switch value {
      case .string(let string) where string.isEmpty: text = "\"\""
      case .string(let string): text = TerminalText.visible(string)
      case .number(let number) where (key == "exp" || key == "iat") && Self.isTime(number):
        text = "\(Int(number)) (\(Renderer.timestamp(Date(timeIntervalSince1970: number))))"
      case .number(let number):
        // Whole numbers in Int's range print as integers; anything else as the server sent it.
        text = number.rounded() == number && abs(number) < 9e15 ? "\(Int(number))" : "\(number)"
      case .bool(let bool): text = "\(bool)"
      default:
        // Objects and arrays (app_metadata, amr) as compact JSON, cut short if long.
        let json = TerminalText.visible(String(decoding: value.jsonBytes, as: UTF8.self))
        text = json.count > Self.claimWidth ? json.prefix(Self.claimWidth - 1) + "…" : json
      }
      lines.append("  \(TerminalText.visible(key)): \(text)")
    }
    lines.append("  signature: \(style.mask)")
    lines.append("Refresh token: \(style.mask) (single use, rotated by refresh)")
    return lines
  }

  /// The widest a claim's value is shown.
  private static let claimWidth = 160

  /// `version`: authflow's version and the backend it runs on.
  func showVersion() -> [String] {
    ["authflow \(AuthflowMain.version) · \(backend.name) backend"]
  }

  /// Whether `seconds` since 1970 is a time a timestamp can show (years 1970 to 9999).
  private static func isTime(_ seconds: Double) -> Bool {
    (0...253_402_300_799).contains(seconds)
  }

  /// `clock advance <duration>`: the backend's time after the move, or why it did not move.
  func advanceClock(by seconds: Double) async -> CommandOutput {
    guard let clock = backend.clock else { return .done }
    do throws(ShellError) {
      let now = try await clock.advance(by: seconds)
      return .printed(["clock: \(Renderer.timestamp(now))"])
    } catch {
      return .mistake(error)
    }
  }
}
