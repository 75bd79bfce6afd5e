import AuthFlow

extension ShellSession {
  /// Evaluates an `expect`; a failure names what was expected and what was found, but never a
  /// secret value.
  func check(_ expectation: Expectation) -> CommandResult {
    let state = viewModel.navigationState
    let failure: String?
    switch expectation {
    case .state(let screen):
      failure =
        state.screen == screen
        ? nil : "expected state \(screen.rawValue), got \(state.screen.rawValue)"
    case .consent(let on):
      if case .signup(let consent) = state {
        failure = consent == on ? nil : "expected consent \(onOff(on)), got \(onOff(consent))"
      } else {
        failure =
          "expected consent \(onOff(on)), but the screen is \(state.screen.rawValue), which has no consent"
      }
    case .pendingEmail(let email):
      if case .resetVerify(let pending) = state {
        failure = pending == email ? nil : "expected pending-email \(email), got \(pending)"
      } else {
        failure = "expected pending-email \(email), but the screen is \(state.screen.rawValue)"
      }
    case .error(let text):
      failure =
        viewModel.errorMessage == text
        ? nil
        : "expected error \(quoted(text)), got \(describe(viewModel.errorMessage, "no error"))"
    case .noError:
      failure = viewModel.errorMessage.map { "expected no error, got \(quoted($0))" }
    case .banner(let text):
      failure =
        viewModel.statusBanner?.message == text
        ? nil
        : "expected banner \(quoted(text)), got \(describe(viewModel.statusBanner?.message, "no banner"))"
    case .noBanner:
      failure = viewModel.statusBanner.map { "expected no banner, got \(quoted($0.message))" }
    case .field(let field, let value):
      let actual = viewModel.value(of: field)
      if actual == value {
        failure = nil
      } else if field.isSecret {
        failure =
          "expected the \(field.commandName) field to hold the given value; it does not"
          + (actual.isEmpty ? " (it is empty)" : "")
      } else {
        failure = "expected field \(field.commandName) \(quoted(value)), got \(quoted(actual))"
      }
    case .signedIn(let email):
      switch (viewModel.session?.user.email, email) {
      case (nil, _): failure = "expected signed in, got signed out"
      case (let actual?, let expected?) where actual != expected:
        failure = "expected signed in as \(expected), got signed in as \(actual)"
      default: failure = nil
      }
    case .signedOut:
      failure = viewModel.session.map { "expected signed out, got signed in as \($0.user.email)" }
    case .canSubmit(let yes):
      if viewModel.canSubmit == yes {
        failure = nil
      } else {
        let reason = viewModel.submitBlocker.map { " (\(Renderer.reason($0)))" } ?? ""
        failure = "expected can-submit \(yes ? "yes" : "no"), got \(yes ? "no" : "yes")\(reason)"
      }
    }
    return failure.map(CommandResult.failedExpectation) ?? .done
  }

  private func onOff(_ value: Bool) -> String { value ? "on" : "off" }

  private func quoted(_ text: String) -> String { "\"\(text)\"" }

  private func describe(_ text: String?, _ none: String) -> String {
    text.map(quoted) ?? none
  }
}
