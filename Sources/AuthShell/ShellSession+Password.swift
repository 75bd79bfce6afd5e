import AuthFlow

extension ShellSession {
  /// `change-password [password|$NAME]`: the signed-in user's new password, given, read from
  /// the environment, or typed unseen. When the backend wants proof of a recent sign-in, a
  /// terminal asks for the emailed code at once; a script fills it with `mail code` and runs
  /// `change-password` again.
  func changePassword(_ input: FieldInput) async -> CommandOutput {
    let password: String
    switch newPassword(input) {
    case .success(let value): password = value
    case .failure(let error): return .mistake(error)
    }
    let outcome = await viewModel.changePassword(to: password)
    guard outcome == .succeeded(.reauthenticationCodeSent), let ask = secretPrompt,
      let email = viewModel.session?.user.email
    else { return .told(outcome) }
    guard let code = ask("Code from the email to \(TerminalText.visible(email)): ") else {
      return .mistake(.passwordChangeCancelled)
    }
    viewModel.otpCode = code
    return .told(await viewModel.changePassword(to: password))
  }

  /// What asks for a secret unseen: the terminal, or the one a script run at a terminal has.
  private var secretPrompt: (@MainActor (String) -> String?)? {
    if let terminal = io.terminal { return { prompt in terminal.readSecret(prompt: prompt) } }
    return io.asksForSecrets
  }

  /// The new password `input` gives, asking for it where it is not given.
  private func newPassword(_ input: FieldInput) -> Result<String, ShellError> {
    switch input {
    case .value(_, let value):
      return Redaction.isMask(value) ? .failure(.newPasswordIsAMask) : .success(value)
    case .variable(_, let name):
      if let value = environmentValue(name) { return .success(value) }
      guard let ask = secretPrompt else { return .failure(.newPasswordVariableUnset(name)) }
      guard let typed = ask("New password ($\(name)): ") else {
        return .failure(.passwordChangeCancelled)
      }
      // Asked once: the next line that reads the variable gets the same value.
      keep(typed, as: name)
      return .success(typed)
    case .ask:
      guard let ask = secretPrompt else { return .failure(.newPasswordNeeded) }
      guard let typed = ask("New password: ") else { return .failure(.passwordChangeCancelled) }
      return .success(typed)
    }
  }
}
