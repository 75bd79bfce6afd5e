/// Where a Supabase project's `supabase/config.toml` gives a setting, and how its value
/// becomes the option's (the key names and units of the Supabase CLI's config).
public struct ConfigKey: Equatable, Sendable {
  /// How the key's value becomes the option's.
  public enum Form: Equatable, Sendable {
    /// The value is the option's.
    case value
    /// A file, relative to the folder of config.toml, is the option's.
    case file
    /// The flag is set when the value (true or false) is this.
    case flag(when: Bool)
    /// The value, true or false, is the option's.
    case onOff
    /// An array of strings (or one string), joined with `,`, is the option's.
    case list
  }

  /// The dotted path of the key, such as `auth.minimum_password_length`.
  public let path: String
  /// How its value becomes the option's.
  public let form: Form

  /// The key at `path`, read as `form` says.
  public init(_ path: String, _ form: Form = .value) {
    self.path = path
    self.form = form
  }
}
