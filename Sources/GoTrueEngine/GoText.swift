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

  /// `text` without the white space at either end, as Go's `strings.TrimSpace` trims it
  /// (`unicode.IsSpace`: tab, newline, vertical tab, form feed, carriage return, space, U+0085,
  /// U+00A0 and Unicode's other spaces).
  package static func trimSpace(_ text: String) -> String {
    let scalars = text.unicodeScalars
    guard let start = scalars.firstIndex(where: { !isSpace($0) }),
      let end = scalars.lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(scalars[start...end])
  }

  /// Go's `unicode.IsSpace`.
  private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09...0x0D, 0x20, 0x85, 0xA0: true
    case 0..<0x80: false
    default: scalar.properties.isWhitespace
    }
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
