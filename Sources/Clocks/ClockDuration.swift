/// How far a clock is moved, as people and Go write durations: `90s`, `15m`, `25h`, `1h30m`,
/// `1.5h`, `3d`, `500ms`; read by the shell's `clock advance` and by `authflow serve`'s clock
/// route alike.
///
/// Go's `time.ParseDuration` units that make sense for a clock (`ms`, `s`, `m`, `h`) plus days
/// (`d`), with decimal numbers; no sign (clocks only move forward) and nothing longer than
/// ``longest``.
public enum ClockDuration {
  /// The longest duration accepted: ten years, far past every lifetime the flow has (codes
  /// 24 h, sessions 1 h), and short enough that no date arithmetic can overflow.
  public static let longest: Double = 3_650 * 86_400

  /// What a valid duration looks like, for messages.
  public static let examples = "a duration such as 90s, 15m, 25h or 1h30m, up to 3650d"

  private static let units: [Substring: Double] = [
    "ms": 0.001, "s": 1, "m": 60, "h": 3_600, "d": 86_400,
  ]

  /// The duration of `text` in seconds: more than zero and at most ``longest``; `nil` for
  /// anything else.
  public static func seconds(_ text: String) -> Double? {
    guard text.utf8.count <= 32 else { return nil }
    var rest = Substring(text)
    var total = 0.0
    guard !rest.isEmpty else { return nil }
    while !rest.isEmpty {
      let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
      guard number.first?.isNumber == true, number.last?.isNumber == true,
        let value = Double(number)
      else { return nil }
      rest = rest.dropFirst(number.count)
      let unit = rest.prefix { $0.isASCII && $0.isLetter }
      guard let scale = units[unit] else { return nil }
      rest = rest.dropFirst(unit.count)
      total += value * scale
    }
    return total > 0 && total <= longest ? total : nil
  }

  /// `seconds` written as Go writes a duration, largest unit first: `25h`, `1h30m`, `1m30s`,
  /// `2.5s`; `0s` for nothing.
  public static func text(_ seconds: Double) -> String {
    let millis = Int64((max(0, seconds) * 1_000).rounded())
    guard millis > 0 else { return "0s" }
    let hours = millis / 3_600_000
    let minutes = millis / 60_000 % 60
    let wholeSeconds = millis / 1_000 % 60
    let fraction = millis % 1_000
    var text = ""
    if hours > 0 { text += "\(hours)h" }
    if minutes > 0 { text += "\(minutes)m" }
    if wholeSeconds > 0 || fraction > 0 {
      text += "\(wholeSeconds)"
      if fraction > 0 {
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        text += "." + digits
      }
      text += "s"
    }
    return text
  }
}
