/// Text as GoTrue's Go writes and reads it, for messages that must match GoTrue's word for word.
package enum GoText {
  /// `text` quoted as Go's `%q` quotes a string (`strconv.Quote`): in double quotes, `"` and
  /// `\` escaped, control and other unprintable characters as `\n`, `\x07`, `\u00a0`.
  package static func quoted(_ text: String) -> String {
    var output = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"", "\\": output += "\\" + String(scalar)
      case "\u{07}": output += "\\a"
      case "\u{08}": output += "\\b"
      case "\u{0C}": output += "\\f"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      case "\u{0B}": output += "\\v"
      default:
        if isPrintable(scalar) {
          output.unicodeScalars.append(scalar)
        } else if scalar.value < 0x80 {
          output += "\\x" + hex(scalar.value, width: 2)
        } else if scalar.value < 0x10000 {
          output += "\\u" + hex(scalar.value, width: 4)
        } else {
          output += "\\U" + hex(scalar.value, width: 8)
        }
      }
    }
    return output + "\""
  }

  /// Go's `unicode.IsPrint`: letters, marks, numbers, punctuation, symbols and the ASCII space.
  package static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.isASCII { return (0x20...0x7E).contains(scalar.value) }
    switch scalar.properties.generalCategory {
    case .spaceSeparator, .lineSeparator, .paragraphSeparator, .control, .format, .surrogate,
      .privateUse, .unassigned:
      return false
    default:
      return true
    }
  }

  private static func hex(_ value: UInt32, width: Int) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
