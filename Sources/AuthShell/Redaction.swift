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

  /// `link` with everything after its path masked: a query or fragment can carry a code in
  /// any spelling (a repeated or percent-encoded `token`), so none of it is kept.
  static func maskingQuery(of link: String) -> String {
    guard let start = link.firstIndex(where: { $0 == "?" || $0 == "#" }) else { return link }
    return link[...start] + mask
  }
}
