import AuthFlow

/// Parses the words after `expect`.
enum ExpectationParser {
  static let kinds = [
    "state", "consent", "pending-email", "error", "no-error", "banner", "no-banner", "field",
    "signed-in", "signed-out", "can-submit",
  ]

  static func parse(_ arguments: ArraySlice<String>) throws(ShellError) -> Expectation {
    guard let kind = arguments.first else {
      throw ShellError(
        "expect needs something to check", hint: "one of: \(kinds.joined(separator: ", "))")
    }
    let rest = arguments.dropFirst()
    let text = rest.joined(separator: " ")
    switch kind {
    case "state":
      guard rest.count == 1, let screen = AuthScreen(rawValue: text) else {
        throw usage("expect state <\(AuthScreen.allCases.map(\.rawValue).joined(separator: "|"))>")
      }
      return .state(screen)
    case "consent":
      guard rest.count == 1, text == "on" || text == "off" else {
        throw usage("expect consent on|off")
      }
      return .consent(text == "on")
    case "pending-email":
      guard rest.count == 1 else { throw usage("expect pending-email <email>") }
      return .pendingEmail(text)
    case "error":
      guard !rest.isEmpty else { throw usage("expect error <text>, or expect no-error") }
      return .error(text)
    case "banner":
      guard !rest.isEmpty else { throw usage("expect banner <text>, or expect no-banner") }
      return .banner(text)
    case "no-error", "no-banner", "signed-out":
      guard rest.isEmpty else { throw usage("expect \(kind)") }
      return kind == "no-error" ? .noError : kind == "no-banner" ? .noBanner : .signedOut
    case "field":
      guard let name = rest.first else {
        throw usage("expect field <email|password|confirm|otp> <value>")
      }
      return .field(try CommandTable.field(named: name), rest.dropFirst().joined(separator: " "))
    case "signed-in":
      guard rest.count <= 1 else { throw usage("expect signed-in [email]") }
      return .signedIn(rest.first)
    case "can-submit":
      guard rest.count == 1, text == "yes" || text == "no" else {
        throw usage("expect can-submit yes|no")
      }
      return .canSubmit(text == "yes")
    default:
      throw ShellError(
        "expect cannot check '\(kind.prefix(20))'", hint: "one of: \(kinds.joined(separator: ", "))"
      )
    }
  }

  private static func usage(_ usage: String) -> ShellError {
    ShellError("wrong arguments for expect", hint: "usage: \(usage)")
  }
}
