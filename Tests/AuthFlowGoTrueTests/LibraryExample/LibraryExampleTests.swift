import Foundation
import Testing

/// The library page's first example (docs/library.md) is the code of LibraryExample.swift,
/// which compiles here against the real API; run, it signs in and says so.
@MainActor
struct LibraryExampleTests {
  private nonisolated static let folder = URL(filePath: #filePath).deletingLastPathComponent()
  private nonisolated static let page = folder.deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appending(path: "docs/library.md")

  @Test func thePagesExampleIsTheCodeThisTestCompiles() throws {
    let page = try String(contentsOf: Self.page, encoding: .utf8)
    let source = try String(
      contentsOf: Self.folder.appending(path: "LibraryExample.swift"), encoding: .utf8)
    let begin = try #require(source.range(of: "// page begin\n"))
    let end = try #require(source.range(of: "// page end\n"))
    let imports = source[..<begin.lowerBound].split(separator: "\n")
      .filter { $0.hasPrefix("import ") }
    let start = try #require(page.range(of: "```swift\n"))
    let close = try #require(page.range(of: "```\n", range: start.upperBound..<page.endIndex))
    #expect(
      page[start.upperBound..<close.lowerBound]
        == imports.joined(separator: "\n") + "\n\n" + source[begin.upperBound..<end.lowerBound],
      "docs/library.md's first example is not LibraryExample.swift's code")
  }

  @Test func theExampleSignsInAndPrintsTheEventsAndTheUser() async throws {
    printedLines = []
    try await demo()
    #expect(
      printedLines == [
        "auth_screen_viewed", "auth_screen_viewed", "auth_submitted", "auth_succeeded",
        "auth_session_changed", "signed in as test@example.com",
      ])
  }
}
