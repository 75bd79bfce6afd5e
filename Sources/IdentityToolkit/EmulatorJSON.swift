/// JSON with its object members in a chosen order, written as the Auth emulator's Node.js
/// server writes it: compact (`JSON.stringify(value)`) for operation results, or indented by
/// two spaces (`JSON.stringify(value, null, 2)`, Express's `json spaces`) for error bodies and
/// the emulator's own pages.
public indirect enum EmulatorJSON: Equatable, Sendable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A whole number.
  case int(Int64)
  /// A string.
  case string(String)
  /// An array.
  case array([EmulatorJSON])
  /// An object, its members in this order.
  case object([Member])

  /// One member of an object.
  public struct Member: Equatable, Sendable {
    /// The key.
    public var name: String
    /// The value.
    public var value: EmulatorJSON

    /// The member `name: value`.
    public init(_ name: String, _ value: EmulatorJSON) {
      self.name = name
      self.value = value
    }
  }

  /// An object of the members whose values are given: `nil` values are left out, as
  /// `JSON.stringify` leaves out `undefined`.
  public static func members(_ pairs: KeyValuePairs<String, EmulatorJSON?>) -> EmulatorJSON {
    .object(pairs.compactMap { pair in pair.value.map { Member(pair.key, $0) } })
  }

  /// `text` as a string, or `nil` (left out of an object) when there is none.
  public static func maybe(_ text: String?) -> EmulatorJSON? {
    text.map(EmulatorJSON.string)
  }

  /// `flag` as a boolean, or `nil` (left out of an object) when there is none.
  public static func maybe(_ flag: Bool?) -> EmulatorJSON? {
    flag.map(EmulatorJSON.bool)
  }

  /// The value written compactly, as `JSON.stringify(value)` writes it.
  public var compactBytes: [UInt8] {
    var output: [UInt8] = []
    write(into: &output, indent: nil, depth: 0)
    return output
  }

  /// The value indented by two spaces, as `JSON.stringify(value, null, 2)` writes it.
  public var prettyBytes: [UInt8] {
    var output: [UInt8] = []
    write(into: &output, indent: 2, depth: 0)
    return output
  }

  private func write(into output: inout [UInt8], indent: Int?, depth: Int) {
    switch self {
    case .null: output += Array("null".utf8)
    case .bool(let flag): output += Array((flag ? "true" : "false").utf8)
    case .int(let number): output += Array(String(number).utf8)
    case .string(let text): Self.writeString(text, into: &output)
    case .array(let elements):
      Self.writeList(
        elements, open: UInt8(ascii: "["), close: UInt8(ascii: "]"), into: &output,
        indent: indent, depth: depth
      ) { element, output in element.write(into: &output, indent: indent, depth: depth + 1) }
    case .object(let members):
      Self.writeList(
        members, open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), into: &output,
        indent: indent, depth: depth
      ) { member, output in
        Self.writeString(member.name, into: &output)
        output.append(UInt8(ascii: ":"))
        if indent != nil { output.append(UInt8(ascii: " ")) }
        member.value.write(into: &output, indent: indent, depth: depth + 1)
      }
    }
  }

  private static func writeList<Element>(
    _ elements: [Element], open: UInt8, close: UInt8, into output: inout [UInt8], indent: Int?,
    depth: Int, element writeElement: (Element, inout [UInt8]) -> Void
  ) {
    output.append(open)
    guard !elements.isEmpty else {
      output.append(close)
      return
    }
    for (index, element) in elements.enumerated() {
      if index > 0 { output.append(UInt8(ascii: ",")) }
      if let indent { newline(into: &output, spaces: indent * (depth + 1)) }
      writeElement(element, &output)
    }
    if let indent { newline(into: &output, spaces: indent * depth) }
    output.append(close)
  }

  private static func newline(into output: inout [UInt8], spaces: Int) {
    output.append(UInt8(ascii: "\n"))
    output += repeatElement(UInt8(ascii: " "), count: spaces)
  }

  /// A string as `JSON.stringify` quotes it: `"` and `\` escaped, the short escapes for
  /// control characters that have one, `\u00XX` for the rest; everything else (`/`, non-ASCII)
  /// as it is.
  private static func writeString(_ text: String, into output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): output += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
      case UInt8(ascii: "\\"): output += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
      case 0x08: output += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
      case 0x0C: output += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
      case 0x0A: output += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
      case 0x0D: output += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
      case 0x09: output += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
      case 0..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        output += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
      default: output.append(byte)
      }
    }
    output.append(UInt8(ascii: "\""))
  }
}
