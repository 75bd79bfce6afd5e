import AuthFlow
import AuthFlowEmbedded

extension ShellSession {
  /// Requests of the signed-in user and of links.
  func runAction(_ command: Command) async -> CommandResult {
    switch command {
    case .refresh:
      await perform(Renderer.progress(.refresh)) { [viewModel] in await viewModel.refreshSession() }
    case .signOut:
      await perform(Renderer.progress(.signOut)) { [viewModel] in await viewModel.signOut() }
    case .open(let text):
      let link: AuthDeepLink
      do {
        link = try AuthDeepLink(parsing: text)
      } catch {
        return .mistake(ShellError(error.message))
      }
      await open(link)
    case .mailOpen:
      let address = currentEmail
      guard !address.isEmpty else {
        return .mistake(ShellError("mail open needs an email", hint: "set email <address> first"))
      }
      guard let message = backend.engine?.outbox.newest(to: address) else {
        return .mistake(
          ShellError("no email has been sent to \(address)", hint: "mail lists the outbox"))
      }
      do {
        await open(try AuthDeepLink(parsing: message.link))
      } catch {
        return .mistake(ShellError(error.message))
      }
    default:
      break
    }
    return .done
  }

  /// The address emails are looked up for: the pending one on reset-verify, else the field.
  var currentEmail: String {
    if case .resetVerify(let pending) = viewModel.navigationState { return pending }
    return AuthValidation.normalizedEmail(viewModel.email)
  }

  private func open(_ link: AuthDeepLink) async {
    if viewModel.session != nil, case .confirmation = link {
      pendingLines.append("(the app is signed in; the link is handled all the same)")
    }
    await perform(Renderer.progress(.confirmEmail)) { [viewModel] in await viewModel.open(link) }
  }
}
