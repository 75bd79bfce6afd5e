/// What secrets are replaced with wherever a line may be shown or stored: history, `--echo`,
/// `--json` and error text. Which words are secrets is the commands' grammar's to say
/// (``Grammar``, ``Arguments/displayWords(grammar:)``); this is only how they are masked.
enum Redaction {
  /// What a secret value is replaced with.
  static let mask = "••••••••"

  /// The mask of `--plain` output.
  static let plainMask = "********"

  /// Whether `value` is a mask (from history, an echo or `--plain`) rather than a secret.
  static func isMask(_ value: String) -> Bool {
    value == mask || value == plainMask
  }

  /// `link` with the value of its `token` parameter masked.
  static func maskingQuery(of link: String) -> String {
    guard let range = link.firstRange(of: "token=") else { return link }
    let valueEnd = link[range.upperBound...].firstIndex(of: "&") ?? link.endIndex
    var masked = link
    masked.replaceSubrange(range.upperBound..<valueEnd, with: mask)
    return masked
  }
}
