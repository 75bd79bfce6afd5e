/// The syntax check Go's `encoding/json` makes of a whole text before decoding it (`checkValid`,
/// scanner.go), with its error's words: a body GoTrue cannot read is refused with
/// `invalid character '\x00' looking for beginning of value`, `… in string literal`,
/// `… after top-level value`, `unexpected end of JSON input`, each naming the byte as Go's
/// `quoteChar` does. Only the syntax: what a text means (duplicate names, its encoding) is
/// ``StrictJSON``'s to judge, after this.
package enum GoJSONSyntax {
  /// Go's error for `bytes`, or `nil` when Go's scanner reads it to the end.
  package static func error(in bytes: [UInt8]) -> String? {
    var scanner = Scanner()
    for byte in bytes {
      if let message = scanner.step(byte) { return message }
    }
    // Go's `eof`: a space ends a number; what a space cannot follow is named as the error
    // (`invalid character ' ' in literal true (expecting 'e')`), else the text ended early.
    if scanner.isEnd { return nil }
    if let message = scanner.step(0x20) { return message }
    return scanner.isEnd ? nil : "unexpected end of JSON input"
  }

  /// How deep Go's scanner lets objects and arrays nest (`maxNestingDepth`).
  static let maximumDepth = 10_000

  /// Go's `quoteChar`: the byte read as the code point of the same number, quoted as
  /// `strconv.Quote` quotes it, between single quotes.
  static func quoted(_ byte: UInt8) -> String {
    if byte == UInt8(ascii: "'") { return #"'\''"# }
    if byte == UInt8(ascii: "\"") { return #"'"'"# }
    let text = GoText.quoted(String(UnicodeScalar(byte)))
    return "'" + text.dropFirst().dropLast() + "'"
  }

  /// Where Go's scanner stands: `scanner.step`'s states, and the stack of open objects and
  /// arrays (`parseState`).
  private struct Scanner {
    private enum Open { case objectKey, objectValue, arrayValue }
    private enum State {
      case beginValue, beginValueOrEmpty, beginStringOrEmpty, beginString, endValue, endTop
      case inString, inStringEscape, inStringEscapeU(Int)
      case negative, zero, digits, dot, fraction, exponent, exponentSign, exponentDigits
      case literal(word: String, rest: [UInt8])
    }

    private var state = State.beginValue
    private var open: [Open] = []

    /// Whether a whole top-level value has been read.
    var isEnd: Bool {
      if case .endTop = state { return true }
      return false
    }

    /// What may follow a backslash in a string, `u` aside.
    private static let escapes = Set("bfnrt\\/\"".utf8)

    private static func isSpace(_ byte: UInt8) -> Bool {
      byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
      byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func isHex(_ byte: UInt8) -> Bool {
      isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
    }

    private static func failure(_ byte: UInt8, _ context: String) -> String {
      "invalid character \(GoJSONSyntax.quoted(byte)) \(context)"
    }

    /// Reads one byte; Go's error when the text cannot go on with it.
    mutating func step(_ byte: UInt8) -> String? {
      switch state {
      case .beginValueOrEmpty:
        if Self.isSpace(byte) { return nil }
        if byte == UInt8(ascii: "]") { return endValue(byte) }
        return beginValue(byte)
      case .beginValue:
        return beginValue(byte)
      case .beginStringOrEmpty:
        if Self.isSpace(byte) { return nil }
        if byte == UInt8(ascii: "}") {
          open[open.count - 1] = .objectValue
          return endValue(byte)
        }
        return beginString(byte)
      case .beginString:
        return beginString(byte)
      case .endValue:
        return endValue(byte)
      case .endTop:
        return Self.isSpace(byte) ? nil : Self.failure(byte, "after top-level value")
      case .inString:
        if byte == UInt8(ascii: "\"") {
          state = .endValue
        } else if byte == UInt8(ascii: "\\") {
          state = .inStringEscape
        } else if byte < 0x20 {
          return Self.failure(byte, "in string literal")
        }
        return nil
      case .inStringEscape:
        if Self.escapes.contains(byte) {
          state = .inString
        } else if byte == UInt8(ascii: "u") {
          state = .inStringEscapeU(0)
        } else {
          return Self.failure(byte, "in string escape code")
        }
        return nil
      case .inStringEscapeU(let read):
        guard Self.isHex(byte) else {
          return Self.failure(byte, #"in \u hexadecimal character escape"#)
        }
        state = read == 3 ? .inString : .inStringEscapeU(read + 1)
        return nil
      case .negative:
        if byte == UInt8(ascii: "0") {
          state = .zero
        } else if Self.isDigit(byte) {
          state = .digits
        } else {
          return Self.failure(byte, "in numeric literal")
        }
        return nil
      case .digits:
        if Self.isDigit(byte) { return nil }
        return afterInteger(byte)
      case .zero:
        return afterInteger(byte)
      case .dot:
        guard Self.isDigit(byte) else {
          return Self.failure(byte, "after decimal point in numeric literal")
        }
        state = .fraction
        return nil
      case .fraction:
        if Self.isDigit(byte) { return nil }
        if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
          state = .exponent
          return nil
        }
        return endValue(byte)
      case .exponent:
        if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
          state = .exponentSign
          return nil
        }
        return exponentSign(byte)
      case .exponentSign:
        return exponentSign(byte)
      case .exponentDigits:
        return Self.isDigit(byte) ? nil : endValue(byte)
      case .literal(let word, let rest):
        guard let expected = rest.first else { return endValue(byte) }
        guard byte == expected else {
          return Self.failure(
            byte, "in literal \(word) (expecting \(GoJSONSyntax.quoted(expected)))")
        }
        state = rest.count == 1 ? .endValue : .literal(word: word, rest: Array(rest.dropFirst()))
        return nil
      }
    }

    private mutating func beginValue(_ byte: UInt8) -> String? {
      if Self.isSpace(byte) { return nil }
      switch byte {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        open.append(byte == UInt8(ascii: "{") ? .objectKey : .arrayValue)
        guard open.count <= GoJSONSyntax.maximumDepth else {
          return Self.failure(byte, "exceeded max depth")
        }
        state = byte == UInt8(ascii: "{") ? .beginStringOrEmpty : .beginValueOrEmpty
      case UInt8(ascii: "\""): state = .inString
      case UInt8(ascii: "-"): state = .negative
      case UInt8(ascii: "0"): state = .zero
      case UInt8(ascii: "1")...UInt8(ascii: "9"): state = .digits
      case UInt8(ascii: "t"): state = .literal(word: "true", rest: Array("rue".utf8))
      case UInt8(ascii: "f"): state = .literal(word: "false", rest: Array("alse".utf8))
      case UInt8(ascii: "n"): state = .literal(word: "null", rest: Array("ull".utf8))
      default: return Self.failure(byte, "looking for beginning of value")
      }
      return nil
    }

    private mutating func beginString(_ byte: UInt8) -> String? {
      if Self.isSpace(byte) { return nil }
      guard byte == UInt8(ascii: "\"") else {
        return Self.failure(byte, "looking for beginning of object key string")
      }
      state = .inString
      return nil
    }

    private mutating func afterInteger(_ byte: UInt8) -> String? {
      if byte == UInt8(ascii: ".") {
        state = .dot
        return nil
      }
      if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
        state = .exponent
        return nil
      }
      return endValue(byte)
    }

    private mutating func exponentSign(_ byte: UInt8) -> String? {
      guard Self.isDigit(byte) else {
        return Self.failure(byte, "in exponent of numeric literal")
      }
      state = .exponentDigits
      return nil
    }

    /// A value has ended; `byte` is the first after it (Go's `stateEndValue`).
    private mutating func endValue(_ byte: UInt8) -> String? {
      guard let innermost = open.last else {
        state = .endTop
        return step(byte)
      }
      if Self.isSpace(byte) {
        state = .endValue
        return nil
      }
      switch innermost {
      case .objectKey:
        guard byte == UInt8(ascii: ":") else { return Self.failure(byte, "after object key") }
        open[open.count - 1] = .objectValue
        state = .beginValue
      case .objectValue:
        if byte == UInt8(ascii: ",") {
          open[open.count - 1] = .objectKey
          state = .beginString
        } else if byte == UInt8(ascii: "}") {
          open.removeLast()
          state = .endValue
        } else {
          return Self.failure(byte, "after object key:value pair")
        }
      case .arrayValue:
        if byte == UInt8(ascii: ",") {
          state = .beginValue
        } else if byte == UInt8(ascii: "]") {
          open.removeLast()
          state = .endValue
        } else {
          return Self.failure(byte, "after array element")
        }
      }
      return nil
    }
  }
}
