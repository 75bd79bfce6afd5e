/// What only some backends offer the shell.
enum BackendFeature: Hashable, Sendable {
  /// An outbox of the emails the backend sent, to read codes and links from.
  case outbox
  /// A clock the shell can move forward.
  case clock
  /// Demo accounts the shell can put back as a new store has them.
  case demoAccounts

  /// How messages name it.
  var phrase: String {
    switch self {
    case .outbox: "an outbox to read (the embedded backend has one; supabase with --mailbox)"
    case .clock:
      "a clock of its own (the embedded backend on --store :memory: has one, and supabase on "
        + "authflow serve)"
    case .demoAccounts: "demo accounts of its own (the embedded backend has them)"
    }
  }
}
