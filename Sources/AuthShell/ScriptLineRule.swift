/// What a script's `#!` line may ask of an option. A script may come from anyone: from its
/// line the run takes only what keeps it in a sandbox of its own; what reaches the user's
/// saved session, store, files or projects only the command line (the user) may give.
enum ScriptLineRule: Equatable, Sendable {
  /// It writes nothing and reads nothing of the user's (what the run prints, how long a
  /// request may wait): the line may give it.
  case anyValue
  /// Only this value keeps the run in a sandbox (`--store :memory:`,
  /// `--firebase-emulator local`).
  case onlyValue(String)
  /// `--backend`: the embedded one always (its store is judged by `--store`), the Firebase one
  /// when its emulator is the run's own (`--firebase-emulator local`).
  case backend
  /// It changes how the engine treats its store (codes, hashes, confirmation): the line may
  /// give it when the run's store is `:memory:`, a store of the run's own.
  case onMemoryStore
  /// It reaches the user's saved session, store, files or projects: only the command line may
  /// give it.
  case commandLineOnly

  /// Whether the line may give `value` for an option with this rule, on a run whose store is
  /// `:memory:` (`onMemoryStore`) or not.
  func admits(_ value: String, onMemoryStore: Bool) -> Bool {
    switch self {
    case .anyValue: true
    case .onlyValue(let allowed): value == allowed
    case .backend:
      value == BackendKind.embedded.rawValue
        || (value == BackendKind.firebase.rawValue && onMemoryStore)
    case .onMemoryStore: onMemoryStore
    case .commandLineOnly: false
    }
  }
}
