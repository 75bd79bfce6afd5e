/// How a screen reader presents a control: its label, the kind of control, and a hint saying
/// what it does; an app's view hands them to `.accessibilityLabel` and `.accessibilityHint`.
public struct AccessibilityDescription: Hashable, Sendable {
  /// The kind of control, as VoiceOver names it after the label.
  public enum Trait: String, Hashable, Sendable, CaseIterable {
    /// A button.
    case button
    /// A link, such as "Forgot password?".
    case link
    /// A text field whose text is read aloud.
    case textField = "text field"
    /// A text field whose text is never read aloud (passwords, codes).
    case secureTextField = "secure text field"
    /// An on/off switch, such as the terms' consent.
    case toggle = "switch"
  }

  /// What the control is called, e.g. "Email address".
  public var label: String
  /// The kind of control.
  public var trait: Trait
  /// What the control does or expects, e.g. "Signs in with the email address and password."
  public var hint: String?

  /// A description with `label`, `trait` and `hint`.
  public init(_ label: String, _ trait: Trait, hint: String?) {
    self.label = label
    self.trait = trait
    self.hint = hint
  }

  /// What VoiceOver says on reaching the control: "Sign In, button. Signs in with …",
  /// "Consent, switch, off. …"; `value` is a switch's state (never a field's text: a field's
  /// value is shown beside it, and a secret one is never spoken), and a disabled control is
  /// "dimmed".
  public func announcement(value: String? = nil, enabled: Bool = true) -> String {
    var parts = [label, trait.rawValue]
    if let value { parts.append(value) }
    if !enabled { parts.append("dimmed") }
    let spoken = parts.joined(separator: ", ")
    return hint.map { "\(spoken). \($0)" } ?? spoken
  }
}
