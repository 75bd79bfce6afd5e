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
  func show() {
    pendingLines += Renderer.screen(viewModel.state, label: backend.label, style: style, now: now)
  }

  /// `events`: the analytics events so far.
  func listEvents() {
    let numbered = events.numbered
    if numbered.isEmpty { pendingLines.append("No events yet.") }
    for (number, event) in numbered {
      let properties = event.properties.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
      pendingLines.append("\(number). \(event.name) \(properties)")
    }
  }

  /// `help [command]`.
  func help(_ command: CommandSpec?) {
    guard let command else {
      pendingLines += HelpText.overview(context)
      return
    }
    pendingLines += HelpText.details(command)
  }

  /// `expect …`.
  func check(_ expectation: Expectation) -> CommandResult {
    expectation.failure(in: viewModel.state).map(CommandResult.failedExpectation) ?? .done
  }

  /// `delete-account [confirm]`: without `confirm`, says what would be deleted and how to go
  /// ahead (the app's confirmation step); with it, deletes.
  func deleteAccount(confirmed: Bool) async {
    guard confirmed else {
      let email = TerminalText.visible(viewModel.session?.user.email ?? "")
      pendingLines.append(
        "This deletes the account \(email) and everything kept with it; it cannot be undone."
          + " To go ahead: delete-account confirm")
      return
    }
    let email = viewModel.session?.user.email
    await viewModel.deleteAccount()
    if viewModel.session == nil, let email { forgetLocalData(of: email) }
  }

  /// `reload`: renews the tokens, which carry the current verification, and says it.
  func reload() async {
    await viewModel.refreshSession()
    if let user = viewModel.session?.user {
      pendingLines.append("email_verified: \(user.emailVerified)")
    }
  }

  /// `signout`: ends the session, then forgets what this process kept for the user (seed
  /// 003: "clear any sensitive local data"): the saved autofill password and the outbox's
  /// codes and links to them.
  func signOut() async {
    let email = viewModel.session?.user.email
    await viewModel.signOut()
    if let email { forgetLocalData(of: email) }
  }

  private func forgetLocalData(of email: String) {
    let email = AuthValidation.normalizedEmail(email)
    savedPasswords[email] = nil
    backend.mailbox?.forget(recipient: email)
  }

  /// `whoami`.
  func whoami() {
    guard let session = viewModel.session else { return }
    pendingLines += [
      TerminalText.visible(session.user.email),
      "  user id: \(TerminalText.visible(session.user.id))",
      "  email confirmed: \(Renderer.confirmation(of: session.user))",
      "  email_verified: \(session.user.emailVerified)",
      "  session expires: \(Renderer.expiry(session.expiresAt, now: now))",
    ]
    // What the app stored with the account (names, the consent and when), sorted by key.
    for (key, value) in session.user.metadata.sorted(by: { $0.key < $1.key }) {
      pendingLines.append("  \(TerminalText.visible(key)): \(TerminalText.visible(value))")
    }
  }

  /// `token`: the access token's header and claims, decoded; the signature and the refresh
  /// token are never shown.
  func showToken() {
    guard let session = viewModel.session else { return }
    // The Firebase emulator's ID tokens are unsigned: their third part is empty.
    let parts = session.accessToken.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let payload = Base64URL.decode(parts[1]),
      let claims = try? JSONDecoder().decode([String: JSONValue].self, from: Data(payload))
    else {
      pendingLines.append(
        "The access token is not a JWT; it expires \(Renderer.expiry(session.expiresAt, now: now))."
      )
      return
    }
    pendingLines.append("Access token (JWT, signature hidden):")
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
      pendingLines.append("  \(TerminalText.visible(key)): \(text)")
    }
    pendingLines.append("  signature: \(style.mask)")
    pendingLines.append("Refresh token: \(style.mask) (single use, rotated by refresh)")
  }

  /// The widest a claim's value is shown.
  private static let claimWidth = 160

  /// `version`: authflow's version and the backend it runs on.
  func showVersion() {
    pendingLines.append("authflow \(AuthflowMain.version) · \(backend.name) backend")
  }

  /// Whether `seconds` since 1970 is a time a timestamp can show (years 1970 to 9999).
  private static func isTime(_ seconds: Double) -> Bool {
    (0...253_402_300_799).contains(seconds)
  }

  /// `clock advance <duration>`.
  func advanceClock(by seconds: Double) {
    guard let clock = backend.clock else { return }
    clock.advance(by: seconds)
    pendingLines.append("clock: \(Renderer.timestamp(clock.now))")
  }
}
