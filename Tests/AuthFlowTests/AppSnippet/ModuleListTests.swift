import Foundation
import Testing

/// docs/library.md lists the package's modules: every target of Package.swift but the C
/// modules and the tests' support, so a new module cannot be left out.
struct ModuleListTests {
  private static let root = URL(filePath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  @Test func theLibraryPageNamesEveryModule() throws {
    let manifest = try String(
      contentsOf: Self.root.appending(path: "Package.swift"), encoding: .utf8)
    let page = try String(
      contentsOf: Self.root.appending(path: "docs/library.md"), encoding: .utf8)
    let section = try #require(page.range(of: "## The package's modules\n"))
    let listed = page[section.upperBound...]
    var targets: [String] = []
    for match in manifest.matches(of: /\.(?:target|executableTarget)\(([^()]*)\)/) {
      let declaration = match.output.1
      guard let name = declaration.firstMatch(of: /name: "([^"]+)"/)?.output.1,
        !declaration.contains("path: \"Tests/"), name.firstMatch(of: /^C[A-Z]/) == nil
      else { continue }
      targets.append(String(name))
    }
    #expect(targets.count > 20, "Package.swift's targets were not found: \(targets)")
    let missing = targets.filter { !listed.contains("`\($0)`") }
    #expect(missing.isEmpty, "docs/library.md's list of modules lacks \(missing)")
  }
}
