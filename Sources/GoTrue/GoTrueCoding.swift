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
    let seconds = date.timeIntervalSince1970.rounded(.down)
    let whole = Date(timeIntervalSince1970: seconds).formatted(.iso8601)
    let micros = Int(((date.timeIntervalSince1970 - seconds) * 1_000_000).rounded())
    guard micros > 0, micros < 1_000_000 else { return whole }
    var fraction = String(micros)
    fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return String(whole.dropLast()) + "." + fraction + "Z"
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
