import GoTrueEngine

/// What a program that runs the embedded engine keeps of its settings: the engine's
/// configuration, where its accounts live, the users file it seeds them from and the seed of
/// its secrets. `authflow` and `authflow serve` both hold one, set through ``EngineSetting``'s
/// rows.
public struct EngineSettings: Equatable, Sendable {
  /// The engine's settings, GoTrue's defaults unless changed.
  public var engine = EngineConfiguration()
  /// `--store`; `nil` for the default store.
  public var store: String?
  /// `--users FILE`: accounts the store is seeded with at start.
  public var users: String?
  /// `--seed N`: predictable codes and clock, on a throw-away store only.
  public var seed: UInt64?
  /// The settings given (on the command line, in a variable or a project's file), by the
  /// option's main name, with the value as given: what a recording's `#!` line repeats.
  public var given: [String: String] = [:]

  /// GoTrue's defaults.
  public init() {}
}

/// The options of a program that takes ``EngineSetting``s.
public protocol HoldsEngineSettings: Sendable {
  /// The engine's settings among the program's options.
  var settings: EngineSettings { get set }
}
