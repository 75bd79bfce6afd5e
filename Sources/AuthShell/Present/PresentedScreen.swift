import AuthFlow

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The screen as the presented page draws it (`--present`), made from the view model's state
/// with the words the terminal's screen uses (``Renderer``, ``Button``, ``AuthControl``), so
/// the page and `show` cannot drift. It never holds a secret: a password or a code is its
/// mask, and the session is its user and expiry, never a token.
struct PresentedScreen: Encodable, Equatable, Sendable {
  /// How a screen reader presents a control (``AccessibilityDescription``).
  struct Spoken: Encodable, Equatable, Sendable {
    var label: String
    /// `button`, `link`, `text field`, `secure text field`, `switch`.
    var trait: String
    var hint: String?

    init(_ description: AccessibilityDescription) {
      label = description.label
      trait = description.trait.rawValue
      hint = description.hint
    }
  }

  /// A field of the form.
  struct Field: Encodable, Equatable, Sendable {
    /// The field's name in commands (`email`, `confirm`).
    var name: String
    /// Its label on the screen (`Confirm password`).
    var label: String
    /// Its text; a secret's mask; empty when it is.
    var value: String
    /// Whether it holds a secret, shown only as its mask.
    var secret: Bool
    var spoken: Spoken
  }

  /// The signup screen's consent switch.
  struct Switch: Encodable, Equatable, Sendable {
    var label: String
    var on: Bool
    var spoken: Spoken
  }

  /// A button or link of the screen, with the command that presses it.
  struct Control: Encodable, Equatable, Sendable {
    var label: String
    var command: String
    /// Whether it is the form's submit button.
    var primary: Bool
    /// Whether it is a link ("Forgot password?").
    var link: Bool
    var enabled: Bool
    /// Why it is disabled, in the terminal's words.
    var reason: String?
    var spoken: Spoken
  }

  /// The error or banner on show.
  struct Message: Encodable, Equatable, Sendable {
    /// `error`, or the banner's kind: `info`, `success`, `warning`.
    var kind: String
    var text: String
    /// What a screen reader announces when it appears.
    var announcement: String
  }

  /// A row of the signed-in screen.
  struct Row: Encodable, Equatable, Sendable {
    var label: String
    var value: String
  }

  /// The backend's name (`embedded`).
  var backend: String
  /// The screen's name in commands (`login`), or `signed-in`.
  var screen: String
  var title: String
  /// What the reset form says above its fields.
  var note: String?
  var fields: [Field] = []
  var consent: Switch?
  var controls: [Control] = []
  /// The signed-in user, while signed in.
  var session: [Row]?
  var message: Message?
  var offline: Bool
  /// What the app is waiting for, while a request is in flight.
  var busy: String?

  /// The screen of `state` on the `backend`, at `now` (for the session's expiry).
  init(_ state: AuthFlowState, backend: String, now: Date) {
    self.backend = backend
    offline = state.network == .offline
    busy = state.inFlight.map(Renderer.progress)
    message = state.message.map(Message.init)
    if let session = state.session {
      screen = "signed-in"
      title = Renderer.signedInTitle
      self.session = Renderer.sessionRows(session, now: now).map { Row(label: $0, value: $1) }
      controls = Self.controls(at: .signedIn, state: state)
      return
    }
    let on = state.navigation.screen
    screen = on.rawValue
    title = Renderer.title(on)
    note = Renderer.note(state) { $0 }
    fields = state.navigation.fields.map { field in
      let value = state.form[field]
      return Field(
        name: field.commandName, label: Renderer.label(of: field, on: on),
        value: field.isSecret && !value.isEmpty ? Redaction.mask : value,
        secret: field.isSecret, spoken: Spoken(AuthControl.field(field).accessibility(on: on)))
    }
    if case .signup(let accepted) = state.navigation {
      consent = Switch(
        label: Renderer.consentLabel, on: accepted,
        spoken: Spoken(AuthControl.consent.accessibility(on: on)))
    }
    controls = Self.controls(at: .screen(on), state: state)
  }

  /// The buttons at `place`, as the terminal's screen lists them.
  private static func controls(at place: Button.Place, state: AuthFlowState) -> [Control] {
    CommandTable.buttons(at: place).map { button, command in
      let blocker = button.submits ? state.submitBlocker : nil
      let summary = CommandTable.spec(named: command)?.summary ?? ""
      let spoken = button.accessibility(summary: summary)
      return Control(
        label: button.label, command: command, primary: button.submits,
        link: spoken.trait == .link, enabled: blocker == nil, reason: blocker.map(Renderer.reason),
        spoken: Spoken(spoken))
    }
  }
}

extension PresentedScreen.Message {
  /// The page's form of `message`.
  init(_ message: AuthMessage) {
    switch message {
    case .error(let text): (kind, self.text) = ("error", text)
    case .banner(let banner): (kind, text) = (banner.kind.rawValue, banner.message)
    }
    announcement = message.accessibilityAnnouncement
  }
}
