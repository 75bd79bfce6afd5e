import CommandLineOptions
import Foundation
import Testing

@testable import AuthShell

/// docs/reference.md's tables of the shell's options and commands are the tables the shell
/// reads, and docs/shell.md's table of what a script's `#!` line may ask for is the options'
/// rules. `AUTHFLOW_UPDATE_DOCS=1` (`make docs`) rewrites them.
@Suite(.serialized)
struct ShellReferenceDocsTests {
  private static let rewrite = ProcessInfo.processInfo.environment["AUTHFLOW_UPDATE_DOCS"] == "1"

  private func hold(_ block: String, _ content: String, page: String = "docs/reference.md")
    throws
  {
    let held = try MarkdownReference.check(
      page: packageRoot.appendingPathComponent(page).path, block: block,
      content: content, rewrite: Self.rewrite)
    #expect(held || Self.rewrite, "\(page)'s \(block) differs from the code: make docs")
  }

  @Test func shellOptionsAreTheShellsTable() throws {
    try hold(
      "shell-options",
      MarkdownReference.optionTable(
        ShellOptions.table.map(\.described), sections: ShellOptions.sections))
  }

  @Test func shellCommandsAreTheCommandTable() throws {
    var lines = ["| Command | Where | What it does |", "|---|---|---|"]
    for command in CommandTable.all {
      let names = ([command.usage] + command.aliases).map { "`\(Self.cell($0))`" }
        .joined(separator: ", ")
      lines.append(
        "| \(names) | \(Self.place(command.availability)) | \(Self.cell(command.summary)) |")
    }
    try hold("shell-commands", lines.joined(separator: "\n"))
  }

  @Test func theScriptLineTableIsTheOptionsRules() throws {
    try hold("script-line-options", Self.scriptLineTable(), page: "docs/shell.md")
  }

  /// What a `#!` line may give, option by option: each row's options as the rules
  /// (``ScriptLineRule``) admit them.
  static func scriptLineTable() -> String {
    var always: [String] = []
    var ownStore: [String] = []
    var never: [String] = []
    for option in ShellOptions.options {
      let name = option.spec.names.first { $0.hasPrefix("--") } ?? ""
      switch option.scriptLine {
      case .anyValue: always.append("`\(name)`")
      case .onlyValue(let value):
        always.append("`\(name) \(value)`")
        never.append("`\(name)` other than `\(value)`")
      case .backend:
        for kind in BackendKind.allCases {
          let words = "`\(name) \(kind.rawValue)`"
          if option.scriptLine.admits(kind.rawValue, onMemoryStore: false) {
            always.append(words)
          } else if option.scriptLine.admits(kind.rawValue, onMemoryStore: true) {
            ownStore.append(words)
          } else {
            never.append(words)
          }
        }
      case .onMemoryStore: ownStore.append("`\(name)`")
      case .commandLineOnly: never.append("`\(name)`")
      }
    }
    let sandbox = "`--store :memory:`, or Firebase's `--firebase-emulator local`"
    return [
      "| From the `#!` line | Options |", "|---|---|",
      "| always | \(always.joined(separator: ", ")) |",
      "| only on a store of the run's own (\(sandbox)) | \(ownStore.joined(separator: ", ")) |",
      "| never: the command line only | \(never.joined(separator: ", ")), a file name |",
    ].joined(separator: "\n")
  }

  @Test func theShellPagesCommandTableNamesEveryCommandAndNoOther() throws {
    let page = try String(
      contentsOf: packageRoot.appendingPathComponent("docs/shell.md"), encoding: .utf8)
    let start = try #require(page.range(of: "| Where | Commands |\n"))
    let rows = page[start.upperBound...].split(separator: "\n").prefix { $0.hasPrefix("|") }
      .dropFirst()
    // Each code span of the table is a command: its first word is the command's name (`\q` is
    // how `q` is typed).
    let named = Set(
      rows.flatMap { row in
        row.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }
          .compactMap { $0.element.split(separator: " ").first.map(String.init) }
      }.map { $0.hasPrefix("\\") ? String($0.dropFirst()) : $0 })
    let known = Set(CommandTable.all.flatMap(\.names))
    #expect(named.subtracting(known).isEmpty, "docs/shell.md names commands there are not")
    let missing = CommandTable.all.map(\.name).filter { !named.contains($0) }
    #expect(missing.isEmpty, "docs/shell.md's table of commands lacks \(missing)")
  }

  /// `text` in a table cell: its pipes escaped.
  private static func cell(_ text: String) -> String { text.replacing("|", with: "\\|") }

  private static func place(_ availability: Availability) -> String {
    switch availability {
    case .screens(let screens): screens.map(\.rawValue).joined(separator: ", ")
    case .fields: "a form"
    case .signedIn: "signed in"
    case .anywhere: "anywhere"
    case .feature(.outbox): "with an outbox"
    case .feature(.clock): "with a movable clock"
    case .feature(.demoAccounts): "with demo accounts"
    }
  }
}
