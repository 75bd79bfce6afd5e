import AuthFlow
import GoTrueEngine

extension ShellSession {
  /// `mail`, `mail code`, `mail open`.
  func mail(_ arguments: Arguments) async -> CommandResult {
    switch arguments {
    case .word("code"): return mailCode()
    case .word("open"): return await mailOpen()
    default:
      pendingLines += mailLines()
      return .done
    }
  }

  /// `open <link>`: acts on a link from an email, as tapping it would.
  func open(_ arguments: Arguments) async -> CommandResult {
    guard case .link(let text) = arguments else { return .done }
    do {
      await open(try AuthDeepLink(parsing: text))
      return .done
    } catch {
      return .mistake(.badLink(error))
    }
  }

  /// The address emails are looked up for: the pending one on reset-verify, else the field.
  private var currentEmail: String {
    if case .resetVerify(let pending) = viewModel.navigationState { return pending }
    return AuthValidation.normalizedEmail(viewModel.email)
  }

  private func open(_ link: AuthDeepLink) async {
    if viewModel.session != nil, case .confirmation = link {
      pendingLines.append("(the app is signed in; the link is handled all the same)")
    }
    await viewModel.open(link)
  }

  private func mailOpen() async -> CommandResult {
    let address = currentEmail
    guard !address.isEmpty else { return .mistake(.needsEmail(command: "mail open")) }
    guard let message = backend.outbox?.newest(to: address) else {
      return .mistake(.noEmail(to: address))
    }
    do {
      await open(try AuthDeepLink(parsing: message.link))
      return .done
    } catch {
      return .mistake(.badLink(error))
    }
  }

  private func mailLines() -> [String] {
    let messages = backend.outbox?.messages ?? []
    guard !messages.isEmpty else { return ["The outbox is empty."] }
    return messages.flatMap { message in
      let code = masksCodes ? Redaction.mask : message.code
      let link = masksCodes ? Redaction.maskingQuery(of: message.link) : message.link
      let recipient = TerminalText.visible(message.recipient)
      return [
        "#\(message.id) \(Renderer.timestamp(message.sentAt)) to \(recipient): \(message.subject)",
        "    code \(TerminalText.visible(code))  \(TerminalText.visible(link))",
      ]
    }
  }

  private func mailCode() -> CommandResult {
    guard case .resetVerify(let pending) = viewModel.navigationState else {
      return .mistake(.mailCodeNeedsResetVerify)
    }
    guard let message = backend.outbox?.newest(to: pending, kind: .recovery) else {
      return .mistake(.noResetCode(to: pending))
    }
    viewModel.otpCode = message.code
    pendingLines.append("Filled in the code from email #\(message.id) (hidden).")
    return .done
  }
}
