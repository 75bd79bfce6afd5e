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
