import AuthCrypto
import AuthFlow
import AuthFlowEmbedded
import GoTrue

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension ShellSession {
  /// Commands that show things, and the embedded backend's outbox and clock.
  func runInfo(_ command: Command) -> CommandResult {
    switch command {
    case .show:
      pendingLines += Renderer.screen(
        ScreenState(viewModel, backendLabel: backend.label), style: style, now: now)
    case .events:
      let numbered = events.numbered
      if numbered.isEmpty { pendingLines.append("No events yet.") }
      for (number, event) in numbered {
        let properties = event.properties.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        pendingLines.append("\(number). \(event.name) \(properties)")
      }
    case .help(let name):
      return help(name)
    case .whoami:
      if let session = viewModel.session {
        pendingLines += [
          session.user.email, "  user id: \(session.user.id)",
          "  email confirmed: \(session.user.emailConfirmedAt.map(Renderer.timestamp) ?? "no")",
          "  session expires: \(Renderer.expiry(session.expiresAt, now: now))",
        ]
      }
    case .token:
      if let session = viewModel.session { pendingLines += tokenLines(session) }
    case .mail:
      pendingLines += mailLines()
    case .mailCode:
      return mailCode()
    case .clockAdvance(let seconds):
      guard let clock = backend.clock else { return .done }
      clock.advance(by: seconds)
      pendingLines.append("clock: \(Renderer.timestamp(clock.now))")
    default:
      break
    }
    return .done
  }

  private func help(_ name: String?) -> CommandResult {
    guard let name else {
      pendingLines += HelpText.overview(context)
      return .done
    }
    guard let spec = CommandTable.spec(named: name) else {
      let hint =
        CommandParser.suggestion(for: name).map { "did you mean '\($0)'?" }
        ?? "type help for the list"
      return .mistake(ShellError("no command named '\(name.prefix(24))'", hint: hint))
    }
    pendingLines += HelpText.details(spec)
    return .done
  }

  /// The access token's header and claims, decoded; the signature and the refresh token are
  /// never shown.
  private func tokenLines(_ session: AuthSession) -> [String] {
    let parts = session.accessToken.split(separator: ".")
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
      case .string(let string): text = string
      case .number(let number) where key == "exp" || key == "iat":
        text = "\(Int(number)) (\(Renderer.timestamp(Date(timeIntervalSince1970: number))))"
      case .number(let number): text = number.rounded() == number ? "\(Int(number))" : "\(number)"
      case .bool(let bool): text = "\(bool)"
      default: text = "…"
      }
      lines.append("  \(key): \(text)")
    }
    lines.append("  signature: \(style.mask)")
    lines.append("Refresh token: \(style.mask) (single use, rotated by refresh)")
    return lines
  }

  private func mailLines() -> [String] {
    let messages = backend.engine?.outbox.messages ?? []
    guard !messages.isEmpty else { return ["The outbox is empty."] }
    return messages.flatMap { message in
      [
        "#\(message.id) \(Renderer.timestamp(message.sentAt)) to \(message.recipient): \(message.subject)",
        "    code \(message.code)  \(message.link)",
      ]
    }
  }

  private func mailCode() -> CommandResult {
    guard case .resetVerify(let pending) = viewModel.navigationState else {
      return .mistake(
        ShellError(
          "mail code fills the reset code on the reset-verify screen",
          hint: "forgot, then send, to get one; confirmation emails are opened with mail open"))
    }
    guard let message = backend.engine?.outbox.newest(to: pending, kind: .recovery) else {
      return .mistake(
        ShellError("no reset code has been sent to \(pending)", hint: "mail lists the outbox"))
    }
    viewModel.otpCode = message.code
    pendingLines.append("Filled in the code from email #\(message.id) (hidden).")
    return .done
  }
}
