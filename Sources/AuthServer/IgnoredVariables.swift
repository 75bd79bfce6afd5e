/// GoTrue's variables (`GOTRUE_*`) set for `authflow serve` that it does not act on, named in
/// one warning line at start as `--config` names the keys of a file: GoTrue would act on them,
/// and a server that ignores them in silence behaves otherwise than the one they were set for.
///
/// serve honours the variable of each of its options (``ServeOptions/allOptions``), so an option
/// that reads a new variable stops its warning with nothing else to change. A feature switched
/// off (`…_ENABLED` false) is what serve does anyway: neither it nor the rest of its group
/// (`GOTRUE_EXTERNAL_GOOGLE_*` beside `GOTRUE_EXTERNAL_GOOGLE_ENABLED=false`) is named, as the
/// file's sections with `enabled = false` are not. Values are never printed: they can be secrets.
enum IgnoredVariables {
  /// The variables serve's options read.
  static let honoured: Set<String> = Set(ServeOptions.allOptions.compactMap(\.environment))

  /// Values serve always behaves as: setting one of these to it asks for nothing serve lacks.
  static let fixed: [String: String] = [
    "GOTRUE_DB_DRIVER": "postgres", "GOTRUE_JWT_AUD": "authenticated",
    "GOTRUE_JWT_DEFAULT_GROUP_NAME": "authenticated", "GOTRUE_MAILER_OTP_LENGTH": "6",
    "GOTRUE_SECURITY_REFRESH_TOKEN_ROTATION_ENABLED": "true",
    "GOTRUE_MAILER_SECURE_EMAIL_CHANGE_ENABLED": "true",
  ]

  /// The `GOTRUE_*` variables of `environment` serve does not act on, sorted by name.
  static func names(in environment: [String: String]) -> [String] {
    let set = environment.filter { $0.key.hasPrefix("GOTRUE_") && !$0.value.isEmpty }
    let offGroups = set.compactMap { name, value in
      name.hasSuffix("_ENABLED") && isOff(value) ? String(name.dropLast("ENABLED".count)) : nil
    }
    return set.filter { name, value in
      !honoured.contains(name) && fixed[name] != value.lowercased()
        && !offGroups.contains { name.hasPrefix($0) }
    }.keys.sorted()
  }

  /// The one warning line, or `nil` when serve acts on every `GOTRUE_*` variable set.
  static func warning(_ environment: [String: String]) -> String? {
    let names = names(in: environment)
    guard !names.isEmpty else { return nil }
    return "environment: authflow serve does not support "
      + names.joined(separator: ", ") + "; ignored"
  }

  /// Whether a switch is off, as GoTrue's variables write it (Go's `strconv.ParseBool`).
  private static func isOff(_ value: String) -> Bool {
    ["0", "f", "false"].contains(value.lowercased())
  }
}
