#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `application/x-www-form-urlencoded` escaping, as Go's `url.QueryEscape` does it: letters,
/// digits and `-_.~` stay, a space becomes `+`, every other byte is `%XX`.
public enum FormEncoding {
  /// `text` escaped for a query or a fragment.
  public static func escape(_ text: String) -> String {
    var escaped = ""
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"),
        UInt8(ascii: "."), UInt8(ascii: "~"):
        escaped.append(Character(UnicodeScalar(byte)))
      case UInt8(ascii: " "):
        escaped.append("+")
      default:
        escaped += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
      }
    }
    return escaped
  }

  /// `pairs` as `k=v&k=v`, sorted by key as Go's `url.Values.Encode` writes them.
  public static func encode(_ pairs: [(String, String)]) -> String {
    pairs.sorted { $0.0 < $1.0 }.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}

extension FormEncoding {
  /// The pairs of a form-encoded `text` (`a=1&b=x+y`), decoded: `+` is a space, `%XX` a byte;
  /// a part without `=` is a name with an empty value. Undecodable parts are kept as written.
  public static func decode(_ text: String) -> [(name: String, value: String)] {
    text.split(separator: "&", omittingEmptySubsequences: true).map { part in
      let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      return (unescape(pieces[0]), pieces.count > 1 ? unescape(pieces[1]) : "")
    }
  }

  /// `text` with `+` as a space and each `%XX` as its byte; a `%` not followed by two hex
  /// digits stays as written.
  public static func unescape(_ text: some StringProtocol) -> String {
    var bytes: [UInt8] = []
    var input = Array(text.utf8)[...]
    while let byte = input.popFirst() {
      if byte == UInt8(ascii: "+") {
        bytes.append(UInt8(ascii: " "))
      } else if byte == UInt8(ascii: "%"), input.count >= 2,
        let high = hexValue(input[input.startIndex]),
        let low = hexValue(input[input.startIndex + 1])
      {
        bytes.append(high << 4 | low)
        input = input.dropFirst(2)
      } else {
        bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
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
