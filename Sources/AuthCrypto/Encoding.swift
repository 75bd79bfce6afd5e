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
    if let text = bytes.withContiguousStorageIfAvailable(encode(buffer:)) { return text }
    return Array(bytes).withUnsafeBufferPointer(encode(buffer:))
  }

  /// `bytes` as unpadded base64url text, three bytes to four characters.
  private static func encode(buffer bytes: UnsafeBufferPointer<UInt8>) -> String {
    let count = bytes.count
    return String(unsafeUninitializedCapacity: (count * 4 + 2) / 3) { output in
      alphabet.withUnsafeBufferPointer { alphabet in
        func character(_ group: UInt32, _ shift: UInt32) -> UInt8 {
          alphabet[Int(group >> shift & 0x3F)]
        }
        var (index, written) = (0, 0)
        while index + 3 <= count {
          let group =
            UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
          output[written] = character(group, 18)
          output[written + 1] = character(group, 12)
          output[written + 2] = character(group, 6)
          output[written + 3] = character(group, 0)
          index += 3
          written += 4
        }
        if index < count {
          // One byte left makes two characters, two bytes three.
          var group = UInt32(bytes[index]) << 16
          if index + 1 < count { group |= UInt32(bytes[index + 1]) << 8 }
          output[written] = character(group, 18)
          output[written + 1] = character(group, 12)
          if index + 1 < count { output[written + 2] = character(group, 6) }
          written += count - index + 1
        }
        return written
      }
    }
  }

  /// The base64url alphabet, each character at its value.
  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

  /// `bytes` encoded by Foundation's base64 with the alphabet swapped and padding dropped.
  static func foundationEncode(_ bytes: some Collection<UInt8>) -> String {
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
  ///
  /// Canonical unpadded text (as JWTs carry: only the alphabet, the unused bits of the last
  /// character zero) is decoded directly, a server decodes every token it is shown; any other
  /// text goes to Foundation's decoder, whose verdict stands.
  public static func decode(_ text: some StringProtocol) -> [UInt8]? {
    let direct: [UInt8]? =
      if let contiguous = text.utf8.withContiguousStorageIfAvailable(canonicalDecode) {
        contiguous
      } else {
        Array(text.utf8).withUnsafeBufferPointer(canonicalDecode)
      }
    return direct ?? foundationDecode(text)
  }

  /// The bytes of canonical unpadded base64url `text`; `nil` for any other text.
  static func canonicalDecode(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
    let remainder = text.count % 4
    guard remainder != 1 else { return nil }
    var output: [UInt8] = []
    output.reserveCapacity(text.count * 3 / 4)
    var accumulator: UInt32 = 0
    var bits = 0
    for byte in text {
      let value = decodingTable[Int(byte)]
      guard value < 64 else { return nil }
      accumulator = accumulator << 6 | UInt32(value)
      bits += 6
      if bits >= 8 {
        bits -= 8
        output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
        accumulator &= (1 << UInt32(bits)) - 1
      }
    }
    // The last character's leftover bits must be zero for the text to be the canonical one.
    return accumulator == 0 ? output : nil
  }

  /// Each byte's value in the base64url alphabet, 64 for a byte outside it.
  private static let decodingTable: [UInt8] = {
    var table = [UInt8](repeating: 64, count: 256)
    for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
    return table
  }()

  /// `text` decoded by Foundation's base64 after swapping the alphabet back and padding it.
  static func foundationDecode(_ text: some StringProtocol) -> [UInt8]? {
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
