import CommandLineOptions
import Foundation
import Testing

@testable import AuthShell

/// docs/reference.md's table of the shell's options is the table the shell reads.
/// `AUTHFLOW_UPDATE_DOCS=1` (`make docs`) rewrites it.
struct ShellReferenceDocsTests {
  @Test func shellOptionsAreTheShellsTable() throws {
    let rewrite = ProcessInfo.processInfo.environment["AUTHFLOW_UPDATE_DOCS"] == "1"
    let held = try MarkdownReference.check(
      page: packageRoot.appendingPathComponent("docs/reference.md").path, block: "shell-options",
      content: MarkdownReference.optionTable(
        ShellOptions.table.map(\.described), sections: ShellOptions.sections),
      rewrite: rewrite)
    #expect(held || rewrite, "docs/reference.md's shell-options differs from the code: make docs")
  }
}
