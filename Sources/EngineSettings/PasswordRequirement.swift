/// The characters a new password must hold, as the Supabase CLI names them
/// (`auth.password_requirements`) and as GoTrue reads them (`PASSWORD_REQUIRED_CHARACTERS`).
enum PasswordRequirement {
  /// The CLI's names and the GoTrue value each stands for (`pkg/config/auth.go`).
  static let named: [String: String] = [
    "letters_digits": "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ:0123456789",
    "lower_upper_letters_digits":
      "abcdefghijklmnopqrstuvwxyz:ABCDEFGHIJKLMNOPQRSTUVWXYZ:0123456789",
    "lower_upper_letters_digits_symbols":
      "abcdefghijklmnopqrstuvwxyz:ABCDEFGHIJKLMNOPQRSTUVWXYZ:0123456789:"
      + #"!@#$%^&*()_+-=[]{};'\\:"|<>?,./`~"#,
  ]

  /// The sets of `value`: a CLI name's, or GoTrue's own form, split at `:` where no `\`
  /// escapes it, empty sets dropped (`conf.PasswordRequiredCharacters.Decode`).
  static func characterSets(_ value: String) -> [String] {
    let text = named[value] ?? value
    var parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    var index = 0
    while index < parts.count - 1 {
      let part = parts[index]
      if part.hasSuffix("\\") {
        parts[index] = String(part.dropLast()) + ":" + parts[index + 1]
        parts[index + 1] = ""
      }
      index += 1
    }
    return parts.filter { !$0.isEmpty }
  }
}
