#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// JSON the way GoTrue writes it: RFC 3339 timestamps with or without fractional seconds.
public enum GoTrueCoding {
  /// A decoder for GoTrue's response bodies.
  public static func decoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
      let container = try decoder.singleValueContainer()
      if let seconds = try? container.decode(Double.self) {
        return Date(timeIntervalSince1970: seconds)
      }
      let text = try container.decode(String.self)
      guard let date = parseTimestamp(text) else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "not an RFC 3339 timestamp: \(text)")
      }
      return date
    }
    return decoder
  }

  /// An encoder for request bodies: sorted keys, so the same request is the same bytes.
  public static func encoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }

  /// An encoder for answers, as a GoTrue server writes them: compact, keys sorted (as Go
  /// writes maps; JSON objects have no order, and the same value is always the same bytes),
  /// times in RFC 3339 with the fraction GoTrue keeps (trailing zeros trimmed).
  public static func serverEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .custom { date, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(timestamp(date))
    }
    return encoder
  }

  /// `2025-01-01T00:00:00Z`, or `2025-01-01T00:00:00.123456Z` when the time has a fraction
  /// (to the microsecond, trailing zeros trimmed), always in UTC.
  public static func timestamp(_ date: Date) -> String {
    var text: [UInt8] = []
    appendTimestamp(date, to: &text)
    return String(decoding: text, as: UTF8.self)
  }

  /// Appends ``timestamp(_:)``'s text of `date` to `text`.
  static func appendTimestamp(_ date: Date, to text: inout [UInt8]) {
    let seconds = date.timeIntervalSince1970.rounded(.down)
    if !appendCivilTime(seconds, to: &text) {
      text.append(contentsOf: Date(timeIntervalSince1970: seconds).formatted(.iso8601).utf8)
      text.removeLast()  // the `Z`, written below
    }
    let micros = Int(((date.timeIntervalSince1970 - seconds) * 1_000_000).rounded())
    if micros > 0, micros < 1_000_000 {
      text.append(UInt8(ascii: "."))
      var digits = 6
      var value = micros
      while value % 10 == 0 {
        value /= 10
        digits -= 1
      }
      appendDigits(Int64(value), count: digits, to: &text)
    }
    text.append(UInt8(ascii: "Z"))
  }

  /// Appends `2025-01-01T00:00:00` for whole Unix `seconds` in the years 1900 to 9999, computed
  /// in the Gregorian calendar rather than formatted: a server writes several on every answer.
  /// `false` outside, where `Date.ISO8601FormatStyle` is asked (it uses the Julian calendar
  /// before 1582).
  private static func appendCivilTime(_ seconds: Double, to text: inout [UInt8]) -> Bool {
    // -2208988800 is 1900-01-01T00:00:00Z, 253402300800 is 10000-01-01T00:00:00Z.
    guard seconds >= -2_208_988_800, seconds < 253_402_300_800 else { return false }
    let total = Int64(seconds)
    let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
    let second = total - days * 86_400
    // Howard Hinnant's days_from_civil, inverted: eras of 400 years from 0000-03-01.
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    appendDigits(year, count: 4, to: &text)
    text.append(UInt8(ascii: "-"))
    appendDigits(month, count: 2, to: &text)
    text.append(UInt8(ascii: "-"))
    appendDigits(day, count: 2, to: &text)
    text.append(UInt8(ascii: "T"))
    appendDigits(second / 3_600, count: 2, to: &text)
    text.append(UInt8(ascii: ":"))
    appendDigits(second / 60 % 60, count: 2, to: &text)
    text.append(UInt8(ascii: ":"))
    appendDigits(second % 60, count: 2, to: &text)
    return true
  }

  /// Appends the last `count` decimal digits of `value`, zero-padded.
  private static func appendDigits(_ value: Int64, count: Int, to text: inout [UInt8]) {
    var divisor: Int64 = 1
    for _ in 1..<count { divisor *= 10 }
    while divisor > 0 {
      text.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
      divisor /= 10
    }
  }

  /// Parses `2024-01-01T00:00:00Z`, `2024-01-01T00:00:00.123456Z` and `…+00:00`.
  public static func parseTimestamp(_ text: String) -> Date? {
    let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    let plain = Date.ISO8601FormatStyle()
    if let date = try? withFraction.parse(text) { return date }
    if let date = try? plain.parse(text) { return date }
    // GoTrue sometimes sends microseconds; keep the first three digits of the fraction.
    guard let dot = text.firstIndex(of: "."),
      let zone = text[dot...].firstIndex(where: { $0 == "Z" || $0 == "+" || $0 == "-" })
    else { return nil }
    let fraction = text[text.index(after: dot)..<zone].prefix(3)
    return try? withFraction.parse(String(text[..<dot]) + "." + fraction + String(text[zone...]))
  }
}
