import AuthFlow
import GoTrueEngine

/// The script a recording writes: its header, the steps that make what the exploration relied
/// on, and its lines, with each secret as the environment variable that gives it.
extension ScriptRecorder {
  /// The environment variables the file reads, each with what it holds and the value typed
  /// (`nil` for a secret the exploration never saw).
  var variables: [(name: String, meaning: String, value: String?)] {
    let used = usedSecrets()
    let names = variableNames(used)
    let made = secrets.indices.filter(used.contains).map { index in
      (name: names[index], meaning: meaning(of: index), value: secrets[index].value)
    }
    return made
      + named.map { variable in
        (
          variable.name, "the \(variable.field.commandName) field's value, as named at the prompt",
          Optional(variable.value)
        )
      }
  }

  /// The addresses the exploration relied on that it did not make.
  var reliedOn: [String] { relied.map(\.email) }

  /// Whether the file starts with steps to reach where the recording began.
  var beganElsewhere: Bool { !startSteps().isEmpty }

  /// The script; a value read from the environment is written as its `$NAME`.
  var text: String {
    let names = variableNames(usedSecrets())
    var lines = [
      "#!/usr/bin/env -S authflow " + Lexer.line(setup.options)
    ]
    lines.append(
      "\(Self.mark) \(setup.version) on \(setup.day), on the \(setup.backendName) backend."
    )
    let variables = self.variables
    if !variables.isEmpty {
      lines.append("# Secrets are not kept here: give them in the environment to run it.")
      let width = variables.map(\.name.count).max() ?? 0
      for variable in variables {
        let padding = String(repeating: " ", count: width - variable.name.count)
        lines.append("#   \(variable.name)\(padding)  \(variable.meaning)")
      }
    }
    let prelude = preludeSteps()
    if !prelude.isEmpty {
      lines.append("")
      lines += prelude.map { render($0, names: names) }
      lines.append("")
      lines.append("# The exploration.")
    }
    lines += body.map { render($0, names: names) }
    return masks.apply(lines.joined(separator: "\n") + "\n")
  }

  private func render(_ line: Line, names: [String]) -> String {
    switch line {
    case .command(let invocation):
      Lexer.line([invocation.spec.name] + invocation.input.displayWords)
    case .text(let text): text
    case .secret(let field, let index):
      CommandTable.set.invocation(.variable(field, name: names[index])).displayText
    case .newPassword(let index):
      CommandTable.changePassword.invocation(.variable(.password, name: names[index])).displayText
    case .check(let words): Lexer.line([CommandTable.expect.spec.name] + words)
    }
  }

  /// The steps that make what the exploration relied on: on a fresh store its accounts, then
  /// (on any backend) the screen, form and session it began with.
  private func preludeSteps() -> [Line] {
    var steps: [Line] = []
    // On a project the accounts are there already (or the run cannot make them its own).
    for account in setup.freshStore ? relied : [] {
      let state = account.confirmed ? "confirmed" : "waiting for confirmation"
      steps.append(.text("# \(account.email) was made before the recording began (\(state)):"))
      steps += [
        .command(CommandTable.create.invocation()), Self.fill(.email, account.email),
        .secret(.password, index: account.secret), .secret(.confirmPassword, index: account.secret),
        .command(CommandTable.consent.invocation(true)),
        .command(CommandTable.submit.invocation()),
      ]
      if setup.autoconfirm {
        steps.append(.command(CommandTable.signout.invocation()))
      } else {
        if account.confirmed { steps.append(.command(CommandTable.mail.invocation(.open))) }
        steps.append(.command(CommandTable.back.invocation()))
      }
    }
    let reach = startSteps()
    if !reach.isEmpty {
      steps.append(.text("# Where the recording began:"))
      steps += reach
    }
    return steps
  }

  /// The steps from the choice screen, signed out and online, to where the recording began.
  private func startSteps() -> [Line] {
    var steps: [Line] = []
    if let session = start.session {
      let email = AuthValidation.normalizedEmail(session.user.email)
      steps += [.command(CommandTable.signin.invocation()), Self.fill(.email, email)]
      if let account = relied.first(where: { $0.email == email }) {
        steps.append(.secret(.password, index: account.secret))
      } else if email == DemoAccounts.confirmed.email {
        steps.append(
          .text(
            Lexer.line(
              [
                CommandTable.set.spec.name, AuthField.password.commandName,
                DemoAccounts.confirmed.password,
              ])))
      }
      steps.append(.command(CommandTable.submit.invocation()))
    } else {
      let signin = Line.command(CommandTable.signin.invocation())
      let forgot = Line.command(CommandTable.forgot.invocation())
      switch start.navigation {
      case .choice: break
      case .login: steps.append(signin)
      case .signup: steps.append(.command(CommandTable.create.invocation()))
      case .resetRequest: steps += [signin, forgot]
      case .resetVerify(let email):
        steps += [
          signin, Self.fill(.email, email), forgot, .command(CommandTable.send.invocation()),
        ]
      }
      for field in start.navigation.fields {
        let value = start.form[field]
        guard !value.isEmpty else { continue }
        if field.isSecret, !Self.demoPasswords.contains(value) {
          guard field != .otp, let index = secrets.firstIndex(where: { $0.value == value })
          else { continue }
          steps.append(.secret(field, index: index))
        } else if field.isSecret {
          // A demo account's published password, written as it is.
          steps.append(.text(Lexer.line([CommandTable.set.spec.name, field.commandName, value])))
        } else {
          steps.append(Self.fill(field, value))
        }
      }
      if case .signup(true) = start.navigation {
        steps.append(.command(CommandTable.consent.invocation(true)))
      }
    }
    if start.network == .offline {
      steps.append(.command(CommandTable.network.invocation(.offline)))
    }
    return steps
  }

  /// The secrets a line of the file reads.
  private func usedSecrets() -> Set<Int> {
    var used: Set<Int> = []
    for line in body + preludeSteps() {
      switch line {
      case .secret(_, let index), .newPassword(let index): used.insert(index)
      case .command, .text, .check: break
      }
    }
    return used
  }

  /// The variable of each secret in `used`: named after the address it first went with
  /// (`ADA_PASSWORD` for ada@example.com), `AUTHFLOW_PASSWORD` without one; `_2`, `_3` where
  /// names meet. Secrets no line reads get no name, so they take none from those that do.
  private func variableNames(_ used: Set<Int>) -> [String] {
    var taken = Set(named.map(\.name))
    var names = Array(repeating: "", count: secrets.count)
    // An account's password takes the plain name before any other secret of its address.
    let order = secrets.indices.filter(used.contains).sorted {
      (secrets[$0].role == .account ? 0 : 1, $0) < (secrets[$1].role == .account ? 0 : 1, $1)
    }
    for index in order {
      let secret = secrets[index]
      let kind =
        switch (secret.isCode, secret.role) {
        case (true, .wrong): "WRONG_CODE"
        case (true, _): "CODE"
        case (false, .wrong): "WRONG_PASSWORD"
        case (false, .new): "NEW_PASSWORD"
        case (false, .typed), (false, .account): "PASSWORD"
        }
      let stem =
        secret.emails.first.map { masks.name(of: $0) ?? Self.stem(of: $0) }.map { $0 + "_" + kind }
        ?? "AUTHFLOW_" + kind
      var name = stem
      var number = 2
      while taken.contains(name) {
        name = "\(stem)_\(number)"
        number += 1
      }
      taken.insert(name)
      names[index] = name
    }
    return names
  }

  /// The local part of `email` as a variable's name: capitals, digits and single `_`s.
  private static func stem(of email: String) -> String {
    var stem = ""
    for byte in email.utf8.prefix(while: { $0 != UInt8(ascii: "@") }) {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"): stem.append(Character(Unicode.Scalar(byte - 32)))
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        stem.append(Character(Unicode.Scalar(byte)))
      default:
        if !stem.isEmpty, stem.last != "_" { stem.append("_") }
      }
    }
    while stem.last == "_" { stem.removeLast() }
    if stem.isEmpty { return "AUTHFLOW" }
    return stem.first?.isNumber == true ? "USER_" + stem : stem
  }

  private func meaning(of index: Int) -> String {
    let secret = secrets[index]
    let owner = secret.emails.first.map { " for \($0)" } ?? ""
    if secret.isCode {
      return secret.role == .wrong
        ? "a code\(owner) other than the one the outbox holds: a wrong one"
        : "the emailed code\(owner), typed when asked"
    }
    guard let value = secret.value else {
      return setup.freshStore
        ? "a password\(owner) (any the sign-up accepts: the replay makes the account)"
        : "the password\(owner), whose account must exist on the project"
    }
    if secret.role == .wrong {
      return "a wrong password\(owner): one the sign-in refuses"
    }
    if secret.role == .new { return "the new password the reset set\(owner)" }
    if let issue = AuthValidation.checkNewPassword(value) {
      return "the password typed\(owner): one sign-up refuses (\(issue.message))"
    }
    return secret.role == .account && !owner.isEmpty
      ? "the password of \(secret.emails[0])" : "the password typed\(owner)"
  }

  /// `2m5s`, `1h`, `25h30m`: whole seconds as `clock advance` takes them.
  static func duration(_ seconds: Int) -> String {
    let (hours, minutes, rest) = (seconds / 3_600, seconds % 3_600 / 60, seconds % 60)
    var text = ""
    if hours > 0 { text += "\(hours)h" }
    if minutes > 0 { text += "\(minutes)m" }
    if rest > 0 || text.isEmpty { text += "\(rest)s" }
    return text
  }

  /// `set <field> <value>` for a field that is not secret.
  private static func fill(_ field: AuthField, _ value: String) -> Line {
    .command(CommandTable.set.invocation(.value(field, value)))
  }
}
