import GoTrueEngine
import Synchronization

/// The screen on show, as the page's event stream hands it out: the JSON of the newest
/// ``PresentedScreen`` and its version. The shell replaces it after each command (on the main
/// actor); the server's tasks read it and wait on ``changes`` (off it), so a held stream never
/// waits for the shell and the shell never waits for a browser.
final class PresentBoard: Sendable {
  /// The screen's JSON and how many screens were shown before it.
  struct Shown: Equatable, Sendable {
    var version: Int
    var json: String
  }

  private let current = Mutex(Shown(version: 0, json: "{}"))
  /// Touched after each new screen, for the held event streams.
  let changes = ChangeSignal()

  /// A board showing nothing yet.
  init() {}

  /// The screen on show.
  var shown: Shown { current.withLock { $0 } }

  /// Shows `json`, unless it is what is on show already (`show`, `help`: nothing changed).
  func show(_ json: String) {
    let changed = current.withLock { shown in
      guard shown.json != json else { return false }
      shown = Shown(version: shown.version + 1, json: json)
      return true
    }
    // NB: touched after the version moved, so a stream that read the version before it and
    // then waits on the signal is woken.
    if changed { changes.touch() }
  }
}
