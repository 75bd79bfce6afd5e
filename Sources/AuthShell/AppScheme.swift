import CommandLineOptions

/// An app's own URL scheme (`volvoxsober`), as RFC 3986 spells schemes: a letter, then letters,
/// digits, `+`, `-` or `.`; never the web's, whose links open a website rather than the app.
enum AppScheme {
  /// `value`, lowercased, or why it is no app's scheme.
  static func validated(_ value: String) throws(OptionValueError) -> String {
    let scheme = value.lowercased()
    let expected = "an app's URL scheme such as volvoxsober (a letter, then letters, digits, + - .)"
    guard let first = scheme.unicodeScalars.first, ("a"..."z").contains(first),
      scheme.unicodeScalars.allSatisfy({
        ("a"..."z").contains($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)
      }), scheme.count <= 64
    else {
      throw OptionValueError(expected: expected)
    }
    guard !["http", "https"].contains(scheme) else {
      throw OptionValueError(expected: "\(expected); http and https open a website, not the app")
    }
    return scheme
  }
}
