/// The byte classes of RFC 9110 and 9112 that the request and reply checks share.
enum HTTPBytes {
  /// `tchar`: a byte of a token (a method or a field name).
  static func isToken(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "A")...UInt8(ascii: "Z"):
      true
    case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"),
      UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"),
      UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
      UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
      true
    default:
      false
    }
  }

  /// `VCHAR`: a visible ASCII byte (what a request target is made of).
  static func isVisible(_ byte: UInt8) -> Bool {
    (0x21...0x7E).contains(byte)
  }

  /// SP or HTAB: optional whitespace around a field value.
  static func isBlank(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09
  }

  /// `DIGIT`.
  static func isDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }

  /// The value of a `HEXDIG` (either case), or nil.
  static func hexValue(_ byte: UInt8) -> Int? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
    default: nil
    }
  }

  /// The byte with ASCII upper case letters made lower case.
  static func lowercased(_ byte: UInt8) -> UInt8 {
    (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
  }

  /// Whether `bytes` spell `lowercase` (given in lower case) ignoring ASCII case.
  static func equal(_ bytes: UnsafeRawBufferPointer, ignoringCase lowercase: StaticString) -> Bool {
    guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
    return lowercase.withUTF8Buffer { expected in
      zip(bytes, expected).allSatisfy { lowercased($0) == $1 }
    }
  }
}
