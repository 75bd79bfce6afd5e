import AuthFlow

extension ShellSession {
  /// Buttons and switches that change the state at once, with no call to the backend.
  func navigate(_ command: Command) {
    switch command {
    case .signIn: viewModel.navigateToLogin()
    case .create: viewModel.navigateToSignup()
    case .forgot: viewModel.navigateToResetRequest()
    case .back: viewModel.navigateToChoice()
    case .dismiss:
      viewModel.dismissError()
      viewModel.dismissBanner()
    case .network(let status): viewModel.updateNetworkStatus(status)
    default: break
    }
  }

  /// The form's buttons that call the backend, and the ones that need the terminal.
  func runForm(_ command: Command) async -> CommandResult {
    switch command {
    case .signIn, .create, .submit:
      await submit()
    case .resend:
      await perform(Renderer.progress(.resendConfirmation)) { [viewModel] in
        await viewModel.resendConfirmation()
      }
    case .suggestPassword:
      let password = suggestedPassword()
      viewModel.password = password
      viewModel.confirmPassword = password
      suggestion = password
      pendingLines.append("Filled both password fields with a strong password (hidden).")
    case .autofill:
      return autofill()
    case .set(let field, let value):
      return set(field, to: value)
    default:
      break
    }
    return .done
  }

  private func submit() async {
    let email = AuthValidation.normalizedEmail(viewModel.email)
    let password = viewModel.password
    let action: AuthAction =
      switch viewModel.navigationState {
      case .login, .choice: .signIn
      case .signup: .signUp
      case .resetRequest: .resetRequest
      case .resetVerify: .resetVerify
      }
    await perform(Renderer.progress(action)) { [viewModel] in await viewModel.submit() }
    // Like a phone's password manager: a suggested password that worked is offered next time.
    let accepted = viewModel.session != nil || viewModel.statusBanner == .confirmationSent
    if action == .signUp, accepted, let suggestion, suggestion == password {
      savedPasswords[email] = password
      self.suggestion = nil
      pendingLines.append(
        "Saved the suggested password for \(email) in this session; autofill fills it in on the sign-in screen."
      )
    }
  }

  private func autofill() -> CommandResult {
    let typed = AuthValidation.normalizedEmail(viewModel.email)
    let saved =
      typed.isEmpty
      ? savedPasswords.min(by: { $0.key < $1.key })
      : savedPasswords.first(where: { $0.key == typed })
    guard let (email, password) = saved else {
      return .mistake(
        ShellError(
          "no saved password\(typed.isEmpty ? "" : " for \(typed)")",
          hint: "suggest-password on the signup screen saves one once the account is created"))
    }
    viewModel.email = email
    viewModel.password = password
    pendingLines.append("Filled in the saved email and password (hidden).")
    return .done
  }

  /// `set <field> <value>`; a mask copied from history or an echo is refused.
  func setField(_ field: AuthField, to value: String) -> CommandResult {
    if field.isSecret, Redaction.isMask(value) {
      return .mistake(
        ShellError(
          "that \(field.commandName) is a mask from history or an echo, not the real value",
          hint: "type the value again, or use set \(field.commandName) with no value"))
    }
    viewModel.setValue(value, for: field)
    return .done
  }

  private func set(_ field: AuthField, to value: String?) -> CommandResult {
    if let value { return setField(field, to: value) }
    guard field.isSecret, let terminal else {
      return .mistake(
        ShellError(
          "set \(field.commandName) needs a value",
          hint: field.isSecret
            ? "interactive sessions ask for it unseen; scripts write set \(field.commandName) <value>"
            : "usage: set \(field.commandName) <value>"))
    }
    guard let secret = terminal.readSecret(prompt: "\(field.label): ") else {
      return .mistake(ShellError("cancelled", hint: "the \(field.commandName) field is unchanged"))
    }
    viewModel.setValue(secret, for: field)
    return .done
  }

  /// A strong password: 20 characters with letters, digits and symbols, like the phone's
  /// "Strong Password" suggestion.
  private func suggestedPassword() -> String {
    let lowercase = Array("abcdefghijkmnopqrstuvwxyz")
    let uppercase = Array("ABCDEFGHJKLMNPQRSTUVWXYZ")
    let digits = Array("23456789")
    let symbols = Array("-!?#%")
    let all = lowercase + uppercase + digits + symbols
    let random = backend.random
    func pick(_ set: [Character]) -> Character {
      set[Int(random.uniform(below: UInt32(set.count)))]
    }
    var characters = [pick(lowercase), pick(uppercase), pick(digits), pick(symbols)]
    while characters.count < 20 { characters.append(pick(all)) }
    for index in characters.indices.reversed() {
      characters.swapAt(index, Int(random.uniform(below: UInt32(index + 1))))
    }
    return String(characters)
  }
}
