import AuthFlow

/// A button on a screen: where it shows, its label, and whether it submits the form. A button
/// that is one of the app's controls takes its label from the library's ``AuthControl``, so
/// what the screen shows and what a screen reader announces are declared once.
struct Button: Equatable, Sendable {
  /// Where a button shows.
  enum Place: Hashable, Sendable {
    /// On a screen of the flow, while signed out.
    case screen(AuthScreen)
    /// On the signed-in screen.
    case signedIn
  }

  /// Where it shows.
  var place: Place
  /// Its label, as the app shows it.
  var label: String
  /// The app's control it is; `nil` for the shell's stand-ins for the phone (autofill, a
  /// suggested password) and the signed-in screen's buttons.
  var control: AuthControl?

  /// The app's `control` on `screen`.
  init(on screen: AuthScreen, _ control: AuthControl) {
    place = .screen(screen)
    label = control.accessibility(on: screen).label
    self.control = control
  }

  /// A button of the shell's own, labelled `label`.
  init(place: Place, label: String) {
    self.place = place
    self.label = label
  }

  /// Whether it is the form's submit button, enabled only when the form can be submitted.
  var submits: Bool { control == .submit }

  /// How a screen reader presents it: the app's control as the library describes it, or a
  /// button whose hint is what its command does (`summary`).
  func accessibility(summary: String) -> AccessibilityDescription {
    if case .screen(let screen) = place, let control { return control.accessibility(on: screen) }
    let hint = summary.prefix(1).uppercased() + summary.dropFirst() + "."
    return AccessibilityDescription(label, .button, hint: hint)
  }
}
