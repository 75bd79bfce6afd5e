/// Base32 with RFC 4648's standard alphabet (`A`–`Z`, `2`–`7`), the text form of TOTP secrets
/// in authenticator apps and `otpauth://` URIs.
public enum Base32 {
  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

  /// `bytes` as base32 text without padding, as Go's `base32.StdEncoding.WithPadding(NoPadding)`
  /// writes a TOTP secret.
  public static func encode(_ bytes: some Collection<UInt8>) -> String {
    var output: [UInt8] = []
    output.reserveCapacity((bytes.count * 8 + 4) / 5)
    var buffer: UInt32 = 0
    var bits = 0
    for byte in bytes {
      buffer = (buffer << 8) | UInt32(byte)
      bits += 8
      while bits >= 5 {
        bits -= 5
        output.append(alphabet[Int((buffer >> UInt32(bits)) & 0x1F)])
      }
    }
    if bits > 0 { output.append(alphabet[Int((buffer << UInt32(5 - bits)) & 0x1F)]) }
    return String(decoding: output, as: UTF8.self)
  }

  /// The bytes of base32 `text`, in either case, with or without `=` padding; `nil` when it is
  /// not base32 (a foreign character, or a length no encoding produces).
  public static func decode(_ text: some StringProtocol) -> [UInt8]? {
    var output: [UInt8] = []
    var buffer: UInt32 = 0
    var bits = 0
    var characters = 0
    var padding = false
    for character in text.utf8 {
      if character == UInt8(ascii: "=") {
        padding = true
        continue
      }
      guard !padding, let value = value(of: character) else { return nil }
      characters += 1
      buffer = (buffer << 5) | value
      bits += 5
      if bits >= 8 {
        bits -= 8
        output.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
      }
      buffer &= (1 << UInt32(bits)) - 1
    }
    // Whole bytes end after 0, 2, 4, 5 or 7 characters of each group of eight.
    guard [0, 2, 4, 5, 7].contains(characters % 8) else { return nil }
    return output
  }

  private static func value(of character: UInt8) -> UInt32? {
    switch character {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt32(character - UInt8(ascii: "A"))
    case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt32(character - UInt8(ascii: "a"))
    case UInt8(ascii: "2")...UInt8(ascii: "7"): UInt32(character - UInt8(ascii: "2") + 26)
    default: nil
    }
  }
}
