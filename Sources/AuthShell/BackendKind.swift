/// The kinds of backend the shell runs on, as `--backend` names them. Every place that must know
/// each kind switches over this, so a new kind is found by the compiler wherever it matters.
enum BackendKind: String, CaseIterable, Sendable {
  /// The engine on a local store (the default).
  case embedded
  /// A Supabase project, or `authflow serve`.
  case supabase
  /// A Firebase project, or the Firebase Auth emulator.
  case firebase

  /// `embedded, supabase or firebase`, for messages.
  static let listing =
    allCases.map(\.rawValue).dropLast().joined(separator: ", ")
    + " or " + (allCases.last?.rawValue ?? "")

  /// `embedded|supabase|firebase`, for usage lines.
  static let choices = allCases.map(\.rawValue).joined(separator: "|")
}
