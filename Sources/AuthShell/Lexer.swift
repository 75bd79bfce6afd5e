/// A line split into commands and words.
struct LexedLine: Equatable, Sendable {
  /// The commands, each as its words; empty for a blank or comment line.
  var commands: [[String]]
  /// What is wrong with the quoting, if anything. The words are still there (an open quote
  /// runs to the end of the line), so even a broken line can be shown with its secrets masked.
  var problem: ShellError?
  /// Whether a comment followed the commands (`set email a@b.co # note`).
  var hasComment = false
}

/// Splits a line into commands and words, with shell-style quoting.
///
/// `"…"` keeps spaces and takes `\"` and `\\`; `'…'` keeps everything literally; a backslash
/// outside quotes keeps the next character; an unquoted `;` ends a command. An unquoted `#` at
/// the start of a word starts a comment that runs to the end of the line, as in sh
/// (`set email a@b.co # note`); inside a word (`a#b`) it is a character.
enum Lexer {
  /// The commands of `line`, and what is wrong with its quoting.
  static func lex(_ line: Substring) -> LexedLine {
    var utf8 = line.utf8[...]
    while let first = utf8.first, first == .space || first == .tab { utf8 = utf8.dropFirst() }
    if utf8.first == .hash { return LexedLine(commands: []) }
    if let (words, comment) = plainWords(utf8) {
      return LexedLine(commands: words.isEmpty ? [] : [words], hasComment: comment)
    }

    var commands: [[String]] = []
    var words: [String] = []
    var word: [UInt8] = []
    var inWord = false
    var quote: UInt8?
    var escaped = false
    var hasComment = false

    scan: for byte in utf8 {
      if escaped {
        // Inside double quotes a backslash only escapes a quote or a backslash, as in sh.
        if quote == .doubleQuote, byte != .doubleQuote, byte != .backslash {
          word.append(.backslash)
        }
        word.append(byte)
        escaped = false
        continue
      }
      if let open = quote {
        if byte == open {
          quote = nil
        } else if open == .doubleQuote, byte == .backslash {
          escaped = true
        } else {
          word.append(byte)
        }
        continue
      }
      switch byte {
      case .space, .tab, .carriageReturn:
        if inWord { words.append(String(decoding: word, as: UTF8.self)) }
        word.removeAll(keepingCapacity: true)
        inWord = false
      case .semicolon:
        if inWord { words.append(String(decoding: word, as: UTF8.self)) }
        word.removeAll(keepingCapacity: true)
        inWord = false
        if !words.isEmpty { commands.append(words) }
        words = []
      case .hash where !inWord:
        hasComment = true
        break scan
      case .doubleQuote, .singleQuote:
        quote = byte
        inWord = true
      case .backslash:
        escaped = true
        inWord = true
      default:
        word.append(byte)
        inWord = true
      }
    }
    if inWord { words.append(String(decoding: word, as: UTF8.self)) }
    if !words.isEmpty { commands.append(words) }
    let problem: ShellError? =
      if let quote { .unbalancedQuote(double: quote == .doubleQuote) } else if escaped {
        .loneBackslash
      } else { nil }
    return LexedLine(commands: commands, problem: problem, hasComment: hasComment)
  }

  /// The words of a line with no quotes, escapes or semicolons (most lines), split on blanks
  /// straight from the line's bytes; `nil` when the line needs the full rules.
  private static func plainWords(_ utf8: Substring.UTF8View.SubSequence) -> (
    [String], comment: Bool
  )? {
    let words = utf8.withContiguousStorageIfAvailable { bytes -> ([String], comment: Bool)? in
      var words: [String] = []
      words.reserveCapacity(4)
      var start = -1
      for index in 0..<bytes.count {
        switch bytes[index] {
        case .doubleQuote, .singleQuote, .backslash, .semicolon:
          return nil
        case .hash where start < 0:
          return (words, comment: true)
        case .space, .tab, .carriageReturn:
          if start >= 0 {
            words.append(
              String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
            start = -1
          }
        default:
          if start < 0 { start = index }
        }
      }
      if start >= 0 {
        words.append(
          String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self))
      }
      return (words, comment: false)
    }
    return words ?? nil
  }

  /// `words` as one line, each quoted so ``lex(_:)`` reads them back the same.
  static func line(_ words: [String]) -> String {
    words.map(quote).joined(separator: " ")
  }

  /// `word` quoted so ``lex(_:)`` reads it back as one word.
  static func quote(_ word: String) -> String {
    let plain = !word.isEmpty && word.utf8.allSatisfy { $0 > .space && !isSpecial($0) }
    if plain { return word }
    var quoted = "\""
    for character in word {
      if character == "\"" || character == "\\" { quoted.append("\\") }
      quoted.append(character)
    }
    return quoted + "\""
  }

  /// Whether `byte` means something to ``lex(_:)`` inside a word.
  private static func isSpecial(_ byte: UInt8) -> Bool {
    switch byte {
    case .doubleQuote, .singleQuote, .backslash, .semicolon, .hash: true
    default: false
    }
  }
}

extension UInt8 {
  static let space = UInt8(ascii: " ")
  static let tab = UInt8(ascii: "\t")
  static let carriageReturn = UInt8(ascii: "\r")
  static let newline = UInt8(ascii: "\n")
  static let hash = UInt8(ascii: "#")
  static let semicolon = UInt8(ascii: ";")
  static let doubleQuote = UInt8(ascii: "\"")
  static let singleQuote = UInt8(ascii: "'")
  static let backslash = UInt8(ascii: "\\")
}
