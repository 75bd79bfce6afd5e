import AuthFlow

/// A button on a screen: where it shows, its label, and whether it submits the form.
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
  /// Whether it is the form's submit button, enabled only when the form can be submitted.
  var submits = false
}
