import AuthFlow

extension ShellSession {
  /// "Sign In" or "Create Account" on the choice screen: opens the form.
  func open(_ screen: AuthScreen) {
    if screen == .signup { viewModel.navigateToSignup() } else { viewModel.navigateToLogin() }
  }

  /// The form's submit button. After a signup that creates the account, its password (typed
  /// or suggested) is saved in the session's password manager, as a phone offers to (seed 002
  /// scenario 9); a signup that only resent a confirmation keeps the first password, so
  /// nothing is saved then.
  func submit() async -> CommandOutput {
    let email = AuthValidation.normalizedEmail(viewModel.email)
    let password = viewModel.password
    let outcome = await viewModel.submit()
    guard case .succeeded(let success) = outcome, success.createdAnAccount else {
      return .told(outcome)
    }
    passwords.save(password, for: email)
    return .printed([
      "Saved the password for \(TerminalText.visible(email)) in this session's password manager; "
        + "autofill fills it in on the sign-in screen."
    ])
  }

  /// Fills both password fields with a strong password, kept hidden.
  func suggestPassword() -> [String] {
    let password = suggestedPassword()
    viewModel.password = password
    viewModel.confirmPassword = password
    return ["Filled both password fields with a strong password (hidden)."]
  }

  /// Fills the login form with a password this session's password manager saved, also after
  /// signing out: the device's password manager is not the app's session.
  func autofill() -> CommandOutput {
    let typed = AuthValidation.normalizedEmail(viewModel.email)
    let saved =
      typed.isEmpty
      ? passwords.saved.min(by: { $0.key < $1.key })
      : passwords.saved.first(where: { $0.key == typed })
    guard let (email, password) = saved else {
      return .mistake(.noSavedPassword(email: typed.isEmpty ? nil : typed))
    }
    viewModel.email = email
    viewModel.password = password
    return .printed(["Filled in the saved email and password (hidden)."])
  }

  /// `set <field> [value]`: a mask copied from history or an echo is refused; no value asks
  /// for a secret unseen at a terminal.
  func set(_ input: FieldInput) -> CommandOutput {
    let field: AuthField
    switch input {
    case .variable(let variableField, let name):
      return set(variableField, fromVariable: name)
    case .value(let valueField, let value):
      if valueField.isSecret, Redaction.isMask(value) {
        return .mistake(.maskIsNotAValue(valueField))
      }
      viewModel.setValue(value, for: valueField)
      return .done
    case .ask(let asked):
      field = asked
    }
    guard field.isSecret, let terminal = io.terminal else { return .mistake(.needsValue(field)) }
    guard let secret = terminal.readSecret(prompt: "\(field.label): ") else {
      return .mistake(.entryCancelled(field))
    }
    viewModel.setValue(secret, for: field)
    return .done
  }

  /// `set <field> $NAME`: the value of the environment variable `NAME`; when it is not set,
  /// a terminal asks for a secret unseen (once: the session keeps it, in memory), and anywhere
  /// else it is a mistake naming the variable to set.
  private func set(_ field: AuthField, fromVariable name: String) -> CommandOutput {
    if let value = environmentValue(name) {
      viewModel.setValue(value, for: field)
      return .done
    }
    let ask =
      io.terminal.map { terminal in { terminal.readSecret(prompt: $0) } } ?? io.asksForSecrets
    guard field.isSecret, let ask else { return .mistake(.variableUnset(name, field)) }
    guard let secret = ask("\(field.label) ($\(name)): ") else {
      return .mistake(.entryCancelled(field))
    }
    // Asked once: the next line that reads the variable gets the same value.
    keep(secret, as: name)
    viewModel.setValue(secret, for: field)
    return .done
  }

  /// A strong password: 20 characters with letters, digits and symbols, like the phone's
  /// "Strong Password" suggestion.
  func suggestedPassword() -> String {
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
