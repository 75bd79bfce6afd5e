/// A mistake in what the user typed: one line saying what was wrong, and what would be right.
///
/// Messages name commands and options, never argument values, so a password typed in the wrong
/// place cannot end up in an error.
public struct ShellError: Error, Equatable, Sendable {
  /// What was wrong.
  public var message: String
  /// What would be right, when there is something useful to say.
  public var hint: String?

  /// A mistake with an optional hint.
  public init(_ message: String, hint: String? = nil) {
    self.message = message
    self.hint = hint
  }

  /// The message and the hint on one line.
  public var text: String {
    guard let hint else { return message }
    return "\(message); \(hint)"
  }
}
