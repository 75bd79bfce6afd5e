import AuthFlow

extension ShellSession {
  /// `mail`, `mail code`, `mail open`.
  func mail(_ action: MailAction) async -> CommandOutput {
    guard let mailbox = backend.mailbox else { return .done }
    do throws(ShellError) {
      switch action {
      case .code: return try await mailCode(mailbox)
      case .open: return try await mailOpen(mailbox)
      case .list: return .printed(mailLines(try await mailbox.items()))
      }
    } catch {
      return .mistake(error)
    }
  }

  /// `open <link>`: acts on a link from an email, as tapping it would.
  func open(link text: String) async -> CommandOutput {
    do throws(ShellError) {
      if let followed = try await follow(text) { return followed }
    } catch {
      return .mistake(error)
    }
    do {
      return await open(try AuthDeepLink(parsing: text))
    } catch {
      return .mistake(.badLink(error))
    }
  }

  /// A link to the server when the app asked for its links back (`--app-scheme`), opened as a
  /// phone's browser does: the server verifies it and sends the browser on with the session or
  /// the error, into the app when it allows the app's `redirect_to`. `nil` for a link of
  /// another kind, or when the app asked for no links back.
  private func follow(_ link: String) async throws(ShellError) -> CommandOutput? {
    guard LinkLanding.goesToServer(link), let browser = backend.browser,
      let landing = try await browser.open(link)
    else { return nil }
    let shown = TerminalText.visible(landing.target)
    guard let appLink = landing.link else { throw .linkLeftTheApp(target: landing.target) }
    var opened = await open(appLink)
    opened.lines.insert("The server sent the link on into the app: \(shown)", at: 0)
    return opened
  }

  /// The address emails are looked up for.
  private var currentEmail: String { viewModel.state.addressOnShow }

  /// Opens `link`; the lines it prints, and what it came to.
  private func open(_ link: AuthDeepLink) async -> CommandOutput {
    var output = CommandOutput.done
    if viewModel.session != nil, case .confirmation = link {
      output.append(["(the app is signed in; the link is handled all the same)"])
    }
    output.note(await viewModel.open(link))
    return output
  }

  /// Follows the newest email's link as a tap would. A link into the app opens as it is; a
  /// link to a server's `/verify` (GoTrue's emails) opens the app the way a template linking
  /// into the app with the email's code would.
  private func mailOpen(_ mailbox: any ShellMailbox) async throws(ShellError) -> CommandOutput {
    let address = currentEmail
    guard !address.isEmpty else { throw .needsEmail(command: "mail open") }
    guard let item = try await mailbox.newest(to: address, type: nil) else {
      throw .noEmail(to: address)
    }
    if let link = item.link, let followed = try await follow(link) { return followed }
    if let link = item.link, let appLink = try? AuthDeepLink(parsing: link) {
      return await open(appLink)
    }
    guard let code = item.code else { throw .emailHasNoCode(id: item.id) }
    switch item.type {
    case "signup", "email":
      return await open(.confirmation(email: item.recipient, code: code))
    case "recovery": return await open(.recovery(email: item.recipient, code: code))
    default: throw .badLink(.unsupportedType(item.type ?? "none"))
    }
  }

  private func mailLines(_ items: [MailItem]) -> [String] {
    guard !items.isEmpty else { return ["The outbox is empty."] }
    return items.flatMap { item in
      let link = item.link.map { io.masksCodes ? Redaction.maskingQuery(of: $0) : $0 } ?? ""
      let recipient = TerminalText.visible(item.recipient)
      // Firebase's emails carry a link only: no "code" column for them.
      let code = item.code.map {
        "code \(TerminalText.visible(io.masksCodes ? Redaction.mask : $0))  "
      }
      let sent = item.sentAt.map { " " + Renderer.timestamp($0) } ?? ""
      return [
        "#\(TerminalText.visible(item.id))\(sent) to \(recipient): "
          + TerminalText.visible(item.subject),
        "    \(code ?? "")\(TerminalText.visible(link))",
      ]
    }
  }

  private func mailCode(_ mailbox: any ShellMailbox) async throws(ShellError) -> CommandOutput {
    if let session = viewModel.session {
      // Signed in, the code a password change asked for (GoTrue's reauthentication nonce).
      let address = session.user.email
      guard let item = try await mailbox.newest(to: address, type: "reauthentication"),
        let code = item.code
      else { throw .noReauthenticationCode(to: address) }
      viewModel.otpCode = code
      return .printed([
        "Filled in the code from email #\(TerminalText.visible(item.id)) (hidden); "
          + "change-password again uses it."
      ])
    }
    guard case .resetVerify(let pending) = viewModel.navigationState else {
      throw .mailCodeNeedsResetVerify
    }
    guard let item = try await mailbox.newest(to: pending, type: "recovery") else {
      throw .noResetCode(to: pending)
    }
    guard let code = item.code else { throw .emailHasNoCode(id: item.id) }
    viewModel.otpCode = code
    return .printed(["Filled in the code from email #\(TerminalText.visible(item.id)) (hidden)."])
  }
}

extension AuthFlowState {
  /// The address the screen is about: the pending one on reset-verify, else the email field's,
  /// normalized.
  var addressOnShow: String {
    if case .resetVerify(let pending) = navigation { return pending }
    return AuthValidation.normalizedEmail(form.email)
  }
}
