#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension JSONValue {
  /// The JSON object `bytes` holds, read as Foundation's `JSONDecoder` reads
  /// `[String: JSONValue]`; `nil` when they hold no object or no JSON.
  ///
  /// Plain texts (those the server writes: integers, strings with the common escapes, objects
  /// without repeated names) are read directly, several times faster: a server reads a token's
  /// claims and a user's metadata on every request. Anything else goes to Foundation, so the
  /// verdict on unusual input (fractions, exponents, surrogate escapes, repeated names, deep
  /// nesting, stray bytes) is always Foundation's.
  public static func object(parsing bytes: [UInt8]) -> [String: JSONValue]? {
    if let plain = plain(parsing: bytes) { return plain.objectValue }
    return try? JSONDecoder().decode([String: JSONValue].self, from: Data(bytes))
  }

  /// Any JSON value `bytes` hold, read as Foundation's `JSONDecoder` reads a `JSONValue`
  /// (plain texts directly, as ``object(parsing:)`` reads them); `nil` when they hold no JSON.
  public init?(parsing bytes: [UInt8]) {
    if let plain = Self.plain(parsing: bytes) {
      self = plain
    } else if let value = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)) {
      self = value
    } else {
      return nil
    }
  }

  /// The value of a text in the plain subset; `nil` for any other text.
  static func plain(parsing bytes: [UInt8]) -> JSONValue? {
    bytes.withUnsafeBufferPointer { buffer in
      var reader = PlainJSONReader(buffer)
      return reader.document()
    }
  }
}

/// Reads the plain subset of JSON; any step outside it answers `nil` (ask Foundation).
private struct PlainJSONReader {
  private let bytes: UnsafeBufferPointer<UInt8>
  private var index = 0
  private var depth = 0

  /// Deeper texts go to Foundation, whose own limit then applies.
  private static let maximumDepth = 64

  init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  /// The one value of the text, with nothing but whitespace around it.
  mutating func document() -> JSONValue? {
    guard let result = value() else { return nil }
    skipWhitespace()
    return index == bytes.count ? result : nil
  }

  private mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  private mutating func value() -> JSONValue? {
    skipWhitespace()
    guard index < bytes.count else { return nil }
    switch bytes[index] {
    case UInt8(ascii: "{"): return object()
    case UInt8(ascii: "["): return array()
    case UInt8(ascii: "\""): return string().map(JSONValue.string)
    case UInt8(ascii: "t"): return literal("true", .bool(true))
    case UInt8(ascii: "f"): return literal("false", .bool(false))
    case UInt8(ascii: "n"): return literal("null", .null)
    default: return integer()
    }
  }

  private mutating func literal(_ text: StaticString, _ value: JSONValue) -> JSONValue? {
    let count = text.utf8CodeUnitCount
    guard bytes.count - index >= count else { return nil }
    for offset in 0..<count where bytes[index + offset] != text.utf8Start[offset] { return nil }
    index += count
    return value
  }

  /// An integer of up to 15 digits (exact in a `Double`), no leading zero, not `-0`; fractions
  /// and exponents are Foundation's to read.
  private mutating func integer() -> JSONValue? {
    var negative = false
    if bytes[index] == UInt8(ascii: "-") {
      negative = true
      index += 1
    }
    let start = index
    var magnitude: Int64 = 0
    while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9")
    {
      // Past 15 digits the number is Foundation's to read; counting on would overflow.
      if index - start < 15 {
        magnitude = magnitude * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
      }
      index += 1
    }
    let count = index - start
    guard count > 0, count <= 15, bytes[start] != UInt8(ascii: "0") || count == 1,
      !(negative && magnitude == 0)
    else { return nil }
    if index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return nil
      default: break
      }
    }
    return .number(Double(negative ? -magnitude : magnitude))
  }

  /// A string with no control characters, no surrogate and no `\u0000` escapes, valid UTF-8.
  private mutating func string() -> String? {
    index += 1
    var text = [UInt8]()
    var start = index
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        index += 1
        return String(validating: text, as: UTF8.self)
      }
      guard byte >= 0x20 else { return nil }
      guard byte == UInt8(ascii: "\\") else {
        index += 1
        continue
      }
      text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
      guard index + 1 < bytes.count else { return nil }
      let escaped = bytes[index + 1]
      index += 2
      switch escaped {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escaped)
      case UInt8(ascii: "b"): text.append(0x08)
      case UInt8(ascii: "f"): text.append(0x0C)
      case UInt8(ascii: "n"): text.append(0x0A)
      case UInt8(ascii: "r"): text.append(0x0D)
      case UInt8(ascii: "t"): text.append(0x09)
      case UInt8(ascii: "u"):
        guard let scalar = hexScalar() else { return nil }
        text.append(contentsOf: String(Character(scalar)).utf8)
      default: return nil
      }
      start = index
    }
    return nil
  }

  /// The four hex digits after `\u`, when they name a scalar other than NUL (no surrogates).
  private mutating func hexScalar() -> Unicode.Scalar? {
    guard bytes.count - index >= 4 else { return nil }
    var code: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: return nil
      }
      code = code << 4 | UInt32(digit)
      index += 1
    }
    guard code != 0 else { return nil }
    return Unicode.Scalar(code)
  }

  private mutating func array() -> JSONValue? {
    guard depth < Self.maximumDepth else { return nil }
    depth += 1
    defer { depth -= 1 }
    index += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return .array(elements)
    }
    while true {
      guard let element = value() else { return nil }
      elements.append(element)
      skipWhitespace()
      guard index < bytes.count else { return nil }
      index += 1
      switch bytes[index - 1] {
      case UInt8(ascii: ","): continue
      case UInt8(ascii: "]"): return .array(elements)
      default: return nil
      }
    }
  }

  /// An object whose names are all different, even as Swift compares strings (canonically).
  private mutating func object() -> JSONValue? {
    guard depth < Self.maximumDepth else { return nil }
    depth += 1
    defer { depth -= 1 }
    index += 1
    var members: [String: JSONValue] = [:]
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let name = string() else {
        return nil
      }
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
      index += 1
      guard let member = value(), members.updateValue(member, forKey: name) == nil else {
        return nil
      }
      skipWhitespace()
      guard index < bytes.count else { return nil }
      index += 1
      switch bytes[index - 1] {
      case UInt8(ascii: ","): continue
      case UInt8(ascii: "}"): return .object(members)
      default: return nil
      }
    }
  }
}
