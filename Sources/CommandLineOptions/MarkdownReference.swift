#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reference pages written from the tables the programs read: an option table as Markdown, and
/// the generated blocks of a page (between `<!-- generated: NAME -->` and `<!-- end NAME -->`),
/// which `make docs` rewrites and the tests hold equal to the code.
public enum MarkdownReference {
  /// `options` as a Markdown table, section by section in `sections`' order: each option with
  /// its value, its help, and the environment variable and config key that also give it.
  public static func optionTable(_ options: [OptionDescription], sections: [String]) -> String {
    let withVariables = options.contains { $0.environment != nil }
    let withKeys = options.contains { $0.configKey != nil }
    var header = ["Option"]
    if withVariables { header.append("Variable") }
    if withKeys { header.append("config.toml") }
    header.append("Meaning")
    var lines = [row(header), row(header.map { _ in "---" })]
    for section in sections {
      let inSection = options.filter { $0.section == section }
      guard !inSection.isEmpty else { continue }
      lines.append(row(["**\(section)**"] + Array(repeating: "", count: header.count - 1)))
      for option in inSection {
        let synopsis = option.names.joined(separator: ", ") + (option.value.map { " " + $0 } ?? "")
        var cells = [code(synopsis)]
        if withVariables { cells.append(option.environment.map(code) ?? "") }
        if withKeys { cells.append(option.configKey.map(code) ?? "") }
        cells.append(escaped(option.summary))
        lines.append(row(cells))
      }
    }
    return lines.joined(separator: "\n")
  }

  /// `text` with the block named `name` holding `content`, or `nil` when it has no such block.
  public static func replacingBlock(named name: String, in text: String, with content: String)
    -> String?
  {
    let opening = "<!-- generated: \(name) (make docs) -->\n"
    let closing = "<!-- end \(name) -->"
    // NB: the standard library's search, not Foundation's `range(of:)`: full Foundation would
    // bring its internationalization (and ICU's data) into the static executable.
    guard let start = text.firstRange(of: opening),
      let end = text[start.upperBound...].firstRange(of: closing)
    else { return nil }
    return String(text[..<start.upperBound]) + content + "\n" + String(text[end.lowerBound...])
  }

  private static func row(_ cells: [String]) -> String {
    "| " + cells.joined(separator: " | ") + " |"
  }

  private static func code(_ text: String) -> String {
    "`" + text.replacing("|", with: "\\|") + "`"
  }

  private static func escaped(_ text: String) -> String {
    text.replacing("|", with: "\\|")
  }
}

extension MarkdownReference {
  /// Holds the block `name` of the page at `path` equal to `content`: with `rewrite`, writes
  /// it there (what `make docs` does); returns whether the page already held it.
  public static func check(page path: String, block name: String, content: String, rewrite: Bool)
    throws -> Bool
  {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    guard let updated = replacingBlock(named: name, in: text, with: content) else {
      throw MissingBlock(page: path, name: name)
    }
    if rewrite, updated != text {
      try updated.write(toFile: path, atomically: true, encoding: .utf8)
    }
    return updated == text
  }

  /// A page without the block a check looks for.
  public struct MissingBlock: Error, CustomStringConvertible {
    /// The page.
    public let page: String
    /// The block's name.
    public let name: String

    /// What is missing, and what the block looks like.
    public var description: String {
      "\(page) has no <!-- generated: \(name) (make docs) --> … <!-- end \(name) --> block"
    }
  }
}
