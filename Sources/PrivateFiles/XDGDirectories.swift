/// The XDG base directories (freedesktop.org), from an environment.
public struct XDGDirectories: Equatable, Sendable {
  /// Where user data goes: `$XDG_DATA_HOME`, else `~/.local/share`.
  public var dataHome: String
  /// Where state such as history goes: `$XDG_STATE_HOME`, else `~/.local/state`.
  public var stateHome: String

  /// The directories `environment` names; relative XDG paths are ignored, as the spec says.
  public init(environment: [String: String]) {
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/"
    func directory(_ variable: String, default fallback: String) -> String {
      if let value = environment[variable], value.hasPrefix("/") { return value }
      return home.hasSuffix("/") ? home + fallback : home + "/" + fallback
    }
    dataHome = directory("XDG_DATA_HOME", default: ".local/share")
    stateHome = directory("XDG_STATE_HOME", default: ".local/state")
  }
}
