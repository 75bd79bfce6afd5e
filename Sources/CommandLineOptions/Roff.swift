/// roff as the `man` macros read it: text escaped so no line is taken for a request, fonts,
/// paragraphs and tagged entries.
enum Roff {
  /// `text` as one or more lines of roff text: backslashes and hyphens escaped (so options
  /// copy as they are typed), characters beyond ASCII named (`\[u2026]`), and a line that
  /// would start with `.` or `'` guarded.
  static func escape(_ text: String) -> String {
    var escaped = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": escaped += "\\e"
      case "-": escaped += "\\-"
      case _ where Self.glyphs[scalar] != nil: escaped += Self.glyphs[scalar] ?? ""
      case _ where !scalar.isASCII:
        let hex = String(scalar.value, radix: 16, uppercase: true)
        escaped += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : String(line)
    }.joined(separator: "\n")
  }

  /// Punctuation beyond ASCII as groff names it, so a terminal without UTF-8 (`man` in the C
  /// locale) shows its ASCII stand-in instead of a warning; the ellipsis, which groff does not
  /// name, as three spaced dots.
  static let glyphs: [Unicode.Scalar: String] = [
    "\u{2026}": ".\\|.\\|.", "\u{2014}": "\\(em", "\u{2013}": "\\(en", "\u{2018}": "\\(oq",
    "\u{2019}": "\\(cq", "\u{201C}": "\\(lq", "\u{201D}": "\\(rq", "\u{2022}": "\\(bu",
    "\u{00D7}": "\\(mu", "\u{2192}": "\\(->", "\u{2264}": "\\(<=", "\u{2265}": "\\(>=",
  ]

  /// `text` in bold.
  static func bold(_ text: String) -> String { "\\fB" + escape(text) + "\\fR" }

  /// `text` in italics.
  static func italic(_ text: String) -> String { "\\fI" + escape(text) + "\\fR" }

  /// Paragraphs, each after `.PP` (but the first when `first` and it opens a section).
  static func paragraphs(_ paragraphs: [String], first: Bool = false) -> [String] {
    paragraphs.enumerated().flatMap { index, paragraph in
      (index == 0 && first ? [] : [".PP"]) + [escape(paragraph)]
    }
  }

  /// An option as a tagged paragraph: its names in bold, its value in italics, its help, and
  /// the variable that also sets it.
  static func option(_ option: OptionDescription) -> [String] {
    let names = option.names.map(bold).joined(separator: ", ")
    var lines = [".TP", names + (option.value.map { " " + italic($0) } ?? "")]
    lines.append(escape(option.summary))
    if let variable = option.environment {
      lines.append("Also set by " + bold(variable) + ".")
    }
    return lines
  }

  /// A section: its heading, paragraphs, and its entries as tagged paragraphs.
  static func section(_ section: ManualSection) -> [String] {
    var lines = [".SH \"\(escape(section.title))\""]
    lines += paragraphs(section.paragraphs, first: true)
    for entry in section.entries {
      lines += [".TP", bold(entry.term)] + entry.text.map(escape)
    }
    return lines
  }
}
