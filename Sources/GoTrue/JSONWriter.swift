#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Writes JSON straight into bytes, exactly as ``GoTrueCoding/serverEncoder()`` writes the same
/// values (compact; object keys in the order of their UTF-8 bytes, as `.sortedKeys` orders them;
/// `/` unescaped; numbers as Swift prints them without a trailing `.0`; times as
/// ``GoTrueCoding/timestamp(_:)``), without Codable's containers and dynamic casts: a server
/// writes a session or a user on every request. Tests hold it to Foundation's bytes.
public struct JSONWriter {
  /// The text so far.
  public fileprivate(set) var bytes: [UInt8]
  /// Whether a value JSON cannot carry (a non-finite number) was met, where Foundation throws.
  private var failed = false

  /// An empty writer with room for `capacity` bytes.
  public init(capacity: Int = 256) {
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  /// The text, or `nil` when a value had no JSON form (Foundation's encoder would throw).
  public var result: [UInt8]? { failed ? nil : bytes }

  /// Writes `null`.
  public mutating func null() { bytes.append(contentsOf: Self.nullText) }

  /// Writes `true` or `false`.
  public mutating func bool(_ value: Bool) {
    bytes.append(contentsOf: value ? Self.trueText : Self.falseText)
  }

  /// Writes an integer.
  public mutating func number(_ value: Int) { bytes.append(contentsOf: String(value).utf8) }

  /// Writes a number as Foundation does: Swift's shortest form, `1.0` as `1`, `1e+16` as is.
  /// A NaN or an infinity fails the writer.
  public mutating func number(_ value: Double) {
    guard value.isFinite else {
      failed = true
      return null()
    }
    var text = value.description
    if text.hasSuffix(".0") { text.removeLast(2) }
    bytes.append(contentsOf: text.utf8)
  }

  /// Writes a string, escaping what JSON requires: quote, backslash and control characters
  /// (`\b \t \n \f \r` by name, the rest as `\u00xx`).
  public mutating func string(_ value: String) {
    bytes.append(UInt8(ascii: "\""))
    var value = value
    value.withUTF8 { utf8 in
      var start = 0
      for index in utf8.indices {
        let byte = utf8[index]
        guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
          continue
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
        start = index + 1
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        default:
          bytes.append(contentsOf: Array("u00".utf8))
          bytes.append(Self.hexDigits[Int(byte >> 4)])
          bytes.append(Self.hexDigits[Int(byte & 0x0F)])
        }
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
    }
    bytes.append(UInt8(ascii: "\""))
  }

  /// Writes a time as the server encoder does, a string from ``GoTrueCoding/timestamp(_:)``.
  public mutating func date(_ value: Date) {
    // A timestamp has nothing to escape.
    bytes.append(UInt8(ascii: "\""))
    GoTrueCoding.appendTimestamp(value, to: &bytes)
    bytes.append(UInt8(ascii: "\""))
  }

  /// Writes any JSON value, objects' keys in order.
  public mutating func value(_ value: JSONValue) {
    switch value {
    case .null: null()
    case .bool(let flag): bool(flag)
    case .number(let amount): number(amount)
    case .string(let text): string(text)
    case .array(let elements): array(elements) { $0.value($1) }
    case .object(let members):
      bytes.append(UInt8(ascii: "{"))
      for (index, key) in members.keys.sorted(by: Self.precedes).enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        string(key)
        bytes.append(UInt8(ascii: ":"))
        if let member = members[key] { self.value(member) }
      }
      bytes.append(UInt8(ascii: "}"))
    }
  }

  /// Writes an array of `elements`, each with `write`.
  public mutating func array<Elements: Sequence>(
    _ elements: Elements, _ write: (inout JSONWriter, Elements.Element) -> Void
  ) {
    bytes.append(UInt8(ascii: "["))
    var first = true
    for element in elements {
      if !first { bytes.append(UInt8(ascii: ",")) }
      first = false
      write(&self, element)
    }
    bytes.append(UInt8(ascii: "]"))
  }

  /// Writes an object whose members `build` adds already in key order (the order `.sortedKeys`
  /// gives, ``precedes(_:_:)``), straight into the text: for types whose keys are fixed, which
  /// so skip ``object(_:)``'s buffer per member and its sort. A debug build checks the order.
  public mutating func orderedObject(_ build: (inout JSONOrderedObjectWriter) -> Void) {
    var object = JSONOrderedObjectWriter(writer: self)
    // The text now lives in `object` alone, so appending to it copies nothing.
    self = JSONWriter(capacity: 0)
    object.writer.bytes.append(UInt8(ascii: "{"))
    build(&object)
    object.writer.bytes.append(UInt8(ascii: "}"))
    self = object.writer
  }

  /// Writes what the server encoder makes of `value`: for the rare parts with no writer.
  public mutating func encoded(_ value: some Encodable) {
    guard let data = try? GoTrueCoding.serverEncoder().encode(value) else {
      failed = true
      return null()
    }
    bytes.append(contentsOf: data)
  }

  /// `.sortedKeys`' order on Linux: the keys' UTF-8 bytes, not Swift's string order.
  static func precedes(_ first: String, _ second: String) -> Bool {
    first.utf8.lexicographicallyPrecedes(second.utf8)
  }

  private static let nullText = Array("null".utf8)
  private static let trueText = Array("true".utf8)
  private static let falseText = Array("false".utf8)
  private static let hexDigits = Array("0123456789abcdef".utf8)
}

/// The members of an object written in key order as they come (``JSONWriter/orderedObject(_:)``).
public struct JSONOrderedObjectWriter {
  fileprivate var writer: JSONWriter
  private var previous: String?

  fileprivate init(writer: JSONWriter) {
    self.writer = writer
  }

  /// Adds the member `key`, which sorts after the one before it, its value written by `write`.
  public mutating func member(_ key: String, _ write: (inout JSONWriter) -> Void) {
    assert(previous.map { JSONWriter.precedes($0, key) } ?? true, "\(key) is out of order")
    if previous != nil { writer.bytes.append(UInt8(ascii: ",")) }
    previous = key
    writer.string(key)
    writer.bytes.append(UInt8(ascii: ":"))
    write(&writer)
  }

  /// Adds a time member when there is a time, as `encodeIfPresent` does.
  public mutating func date(_ key: String, _ value: Date?) {
    if let value { member(key) { $0.date(value) } }
  }
}

/// A value that writes its own JSON with a ``JSONWriter``: the same bytes its `Encodable`
/// conformance gives under ``GoTrueCoding/serverEncoder()``, faster.
public protocol JSONWritable: Encodable {
  /// Writes the value.
  func write(to writer: inout JSONWriter)
}

extension JSONWritable {
  /// The value as the server encoder writes it; `nil` where that encoder would throw.
  public var serverJSON: [UInt8]? {
    var writer = JSONWriter()
    write(to: &writer)
    return writer.result
  }
}
