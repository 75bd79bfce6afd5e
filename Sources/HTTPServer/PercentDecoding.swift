/// Decoding of the path and query of a request target (RFC 3986 percent-encoding, plus the
/// form convention that `+` in a query means a space).
///
/// This is done here rather than with `evhttp_parse_query_str`, which rejects a whole query
/// when one part lacks `=` (`?a=1&b`) and leaves names undecoded.
package enum PercentDecoding {
  /// The path with `%XX` escapes decoded; `+` stays a plus. A `%` not followed by two hex
  /// digits is kept as it is, and bytes that are not UTF-8 become U+FFFD.
  static func path(_ raw: some Sequence<UInt8>) -> String {
    decode(raw, plusIsSpace: false)
  }

  /// The query's pairs in order, names and values decoded, `+` as a space. Empty parts
  /// (`a=1&&b=2`, a trailing `&`) are skipped; a part without `=` has an empty value.
  package static func query(_ raw: String) -> [(name: String, value: String)] {
    raw.utf8.split(separator: UInt8(ascii: "&")).map { part in
      guard let equals = part.firstIndex(of: UInt8(ascii: "=")) else {
        return (decode(part, plusIsSpace: true), "")
      }
      let value = part[part.index(after: equals)...]
      return (decode(part[..<equals], plusIsSpace: true), decode(value, plusIsSpace: true))
    }
  }

  private static func decode(_ raw: some Sequence<UInt8>, plusIsSpace: Bool) -> String {
    let input = Array(raw)
    var output: [UInt8] = []
    output.reserveCapacity(input.count)
    var index = 0
    while index < input.count {
      let byte = input[index]
      if byte == UInt8(ascii: "%"), index + 2 < input.count,
        let high = hexValue(input[index + 1]), let low = hexValue(input[index + 2])
      {
        output.append(high << 4 | low)
        index += 3
        continue
      }
      output.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
      index += 1
    }
    return String(decoding: output, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
