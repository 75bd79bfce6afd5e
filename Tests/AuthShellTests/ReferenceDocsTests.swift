import CommandLineOptions
import Foundation
import Testing

@testable import AuthShell

/// docs/reference.md's table of the shell's options is the table the shell reads.
/// `AUTHFLOW_UPDATE_DOCS=1` (`make docs`) rewrites it.
@Suite(.serialized)
struct ShellReferenceDocsTests {
  private static let rewrite = ProcessInfo.processInfo.environment["AUTHFLOW_UPDATE_DOCS"] == "1"

  private func hold(_ block: String, _ content: String) throws {
    let held = try MarkdownReference.check(
      page: packageRoot.appendingPathComponent("docs/reference.md").path, block: block,
      content: content, rewrite: Self.rewrite)
    #expect(held || Self.rewrite, "docs/reference.md's \(block) differs from the code: make docs")
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
