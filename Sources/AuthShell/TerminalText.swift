/// Text from outside (a server, a link, a store) made safe to show on a terminal: characters
/// that drive a terminal are shown as escapes (`\u{1B}`), never sent raw, so an email or a
/// message cannot move the cursor, recolour the screen or hide what follows.
enum TerminalText {
  /// Whether `scalar` is a C0 or C1 control character, or DEL.
  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }

  /// `text` with every control character written as an escape.
  static func visible(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    var shown = ""
    for scalar in text.unicodeScalars {
      if isControl(scalar) {
        shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      } else {
        shown.unicodeScalars.append(scalar)
      }
    }
    return shown
  }
}
