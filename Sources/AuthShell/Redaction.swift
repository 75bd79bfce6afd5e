import AuthFlow

/// Keeps secrets out of history, echo and JSON: lines that carry a password or code are kept
/// with the value replaced by a mask.
public enum Redaction {
  /// What a secret value is replaced with.
  public static let mask = "••••••••"

  /// Whether `value` is a mask (from history, an echo or `--plain`) rather than a secret.
  public static func isMask(_ value: String) -> Bool {
    value == mask || value == plainMask
  }

  /// The mask of `--plain` output.
  static let plainMask = "********"

  /// The words with any secret value replaced by the mask.
  public static func redact(_ words: [String]) -> [String] {
    guard let name = words.first else { return words }
    switch name {
    case "set" where words.count > 2 && isSecretField(words[1]) && hasValue(words[2...]):
      return Array(words.prefix(2)) + [mask]
    case "expect"
    where words.count > 3 && words[1] == "field" && isSecretField(words[2]) && hasValue(words[3...]):
      return Array(words.prefix(3)) + [mask]
    case "open" where words.count > 1:
      return [name] + words.dropFirst().map(maskingToken)
    default:
      return words
    }
  }

  /// `line` as it may be shown or stored: unchanged when it holds no secret, else rebuilt with
  /// the secrets masked. A line that does not even split into words is masked after any word
  /// that could start a secret.
  public static func safeText(_ line: Substring) -> String {
    guard let commands = try? Lexer.commands(in: line) else {
      var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
      if let start = words.firstIndex(where: { ["set", "expect", "open"].contains($0) }),
        words.count > start + 1
      {
        words = Array(words[...(start + 1)]) + [mask]
      }
      return words.joined(separator: " ")
    }
    let redacted = commands.map(redact)
    guard redacted != commands else { return String(line) }
    return redacted.map { $0.map(Lexer.quote).joined(separator: " ") }.joined(separator: "; ")
  }

  private static func hasValue(_ words: ArraySlice<String>) -> Bool {
    words.contains { !$0.isEmpty }
  }

  private static func isSecretField(_ name: String) -> Bool {
    AuthField(commandName: name)?.isSecret ?? false
  }

  private static func maskingToken(_ link: String) -> String {
    guard let range = link.firstRange(of: "token=") else { return link }
    let valueEnd = link[range.upperBound...].firstIndex(of: "&") ?? link.endIndex
    var masked = link
    masked.replaceSubrange(range.upperBound..<valueEnd, with: mask)
    return masked
  }
}
