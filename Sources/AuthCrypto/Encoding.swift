#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Base64 with the URL-safe alphabet and no padding (RFC 4648 §5), as JWTs use; Foundation's
/// base64 with the two alphabet changes.
public enum Base64URL {
  /// `bytes` as unpadded base64url text.
  public static func encode(_ bytes: some Collection<UInt8>) -> String {
    var text = Data(bytes).base64EncodedString()
    text = String(
      text.unicodeScalars.compactMap { scalar -> Character? in
        switch scalar {
        case "+": "-"
        case "/": "_"
        case "=": nil
        default: Character(scalar)
        }
      })
    return text
  }

  /// The bytes of base64url `text`, padded or not, or `nil` when it is not base64url.
  public static func decode(_ text: some StringProtocol) -> [UInt8]? {
    guard !text.contains("+"), !text.contains("/") else { return nil }
    var standard = String(
      text.map { character -> Character in
        switch character {
        case "-": "+"
        case "_": "/"
        default: character
        }
      })
    let remainder = standard.utf8.count % 4
    if remainder == 1 { return nil }
    if remainder > 0 { standard += String(repeating: "=", count: 4 - remainder) }
    return Data(base64Encoded: standard).map(Array.init)
  }
}

extension Collection<UInt8> {
  /// The bytes as lowercase hexadecimal text.
  public var hexString: String {
    let digits = Array("0123456789abcdef".utf8)
    var output: [UInt8] = []
    output.reserveCapacity(count * 2)
    for byte in self {
      output.append(digits[Int(byte >> 4)])
      output.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: output, as: UTF8.self)
  }
}
