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
    let standard = Data(bytes).base64EncodedData()
    var output: [UInt8] = []
    output.reserveCapacity(standard.count)
    for byte in standard {
      switch byte {
      case UInt8(ascii: "+"): output.append(UInt8(ascii: "-"))
      case UInt8(ascii: "/"): output.append(UInt8(ascii: "_"))
      case UInt8(ascii: "="): continue
      default: output.append(byte)
      }
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// The bytes of base64url `text`, padded or not, or `nil` when it is not base64url.
  public static func decode(_ text: some StringProtocol) -> [UInt8]? {
    var standard: [UInt8] = []
    standard.reserveCapacity(text.utf8.count + 3)
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "+"), UInt8(ascii: "/"): return nil
      case UInt8(ascii: "-"): standard.append(UInt8(ascii: "+"))
      case UInt8(ascii: "_"): standard.append(UInt8(ascii: "/"))
      default: standard.append(byte)
      }
    }
    let remainder = standard.count % 4
    if remainder == 1 { return nil }
    if remainder > 0 { standard += repeatElement(UInt8(ascii: "="), count: 4 - remainder) }
    return Data(base64Encoded: Data(standard)).map(Array.init)
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
