import FirebaseEmulator
import GoTrueEngine
import LocalPages

/// What serve's page works with: the key its tokens are bound to, the engine (through the
/// same functions the admin API calls), the Firebase surface when it is on, and what tells it
/// that something changed.
struct ServePage: Sendable {
  /// Binds each page's requests to a page this process served.
  let key: PageKey
  /// The engine the page reads and acts through.
  let engine: EmbeddedGoTrue
  /// The Firebase surface, with `--firebase-project`.
  let firebase: FirebaseEmulation?
  /// Touched after every request that may have changed the store (users, sessions, the
  /// clock), for the event stream.
  let changes: ChangeSignal
  /// What the server runs with, as the settings view lists it (never a key or a secret).
  let settings: [PageSetting]

  /// The page of `engine`, its settings as given.
  init(
    engine: EmbeddedGoTrue, firebase: FirebaseEmulation?, changes: ChangeSignal,
    settings: [PageSetting], key: PageKey = PageKey()
  ) {
    self.engine = engine
    self.firebase = firebase
    self.changes = changes
    self.settings = settings
    self.key = key
  }
}

/// One line of the settings view: a name and what it is.
struct PageSetting: Encodable, Equatable, Sendable {
  /// What is set (`Surfaces`).
  var name: String
  /// Its value, as words (`GoTrue, Firebase Auth emulator`).
  var value: String
}
