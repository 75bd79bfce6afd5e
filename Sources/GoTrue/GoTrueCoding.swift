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
