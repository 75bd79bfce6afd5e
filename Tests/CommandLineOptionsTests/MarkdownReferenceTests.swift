import CommandLineOptions
import Foundation
import Testing

/// Reference tables are written from option tables, and a page's generated block is replaced
/// whole, leaving the rest of the page as it is.
struct MarkdownReferenceTests {
  struct Options {}

  private static let table: [OptionSpec<Options>] = [
    OptionSpec(
      ["--port"], "N", ["the port", "(default 9999)"], section: "server", environment: "PORT",
      config: ConfigKey("api.port")
    ) { _, _ in },
    OptionSpec(["--mode"], "a|b", ["a or b"], section: "other") { _, _ in },
  ]

  @Test func anOptionTableListsEachSectionWithVariablesAndKeys() {
    let text = MarkdownReference.optionTable(
      Self.table.map(\.described), sections: ["server", "other"])
    #expect(
      text == """
        | Option | Variable | config.toml | Meaning |
        | --- | --- | --- | --- |
        | **server** |  |  |  |
        | `--port N` | `PORT` | `api.port` | the port (default 9999) |
        | **other** |  |  |  |
        | `--mode a\\|b` |  |  | a or b |
        """)
  }

  @Test func aBlockIsReplacedAndTheRestOfThePageKept() throws {
    let page = "# Title\n<!-- generated: x (make docs) -->\nold\n<!-- end x -->\ntail\n"
    #expect(
      MarkdownReference.replacingBlock(named: "x", in: page, with: "new")
        == "# Title\n<!-- generated: x (make docs) -->\nnew\n<!-- end x -->\ntail\n")
    #expect(MarkdownReference.replacingBlock(named: "y", in: page, with: "new") == nil)

    let file = FileManager.default.temporaryDirectory.appending(path: "ref-\(UUID()).md").path
    try page.write(toFile: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: file) }
    #expect(try !MarkdownReference.check(page: file, block: "x", content: "new", rewrite: false))
    #expect(try String(contentsOfFile: file, encoding: .utf8) == page)
    #expect(try !MarkdownReference.check(page: file, block: "x", content: "new", rewrite: true))
    #expect(try MarkdownReference.check(page: file, block: "x", content: "new", rewrite: false))
    #expect(throws: MarkdownReference.MissingBlock.self) {
      try MarkdownReference.check(page: file, block: "y", content: "", rewrite: false)
    }
  }
}
