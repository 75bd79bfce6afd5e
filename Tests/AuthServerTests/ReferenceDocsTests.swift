import CommandLineOptions
import Foundation
import GoTrueEngine
import HTTPServer
import Testing

@testable import AuthServer

/// docs/serve-reference.md's tables of serve are the tables serve reads: its options, and its routes
/// with who may call each. `AUTHFLOW_UPDATE_DOCS=1` (`make docs`) rewrites them.
@Suite(.serialized)
struct ReferenceDocsTests {
  static let page = URL(filePath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appending(
      path: "docs/serve-reference.md"
    )
    .path
  static let rewrite = ProcessInfo.processInfo.environment["AUTHFLOW_UPDATE_DOCS"] == "1"

  private func hold(_ block: String, _ content: String) throws {
    let held = try MarkdownReference.check(
      page: Self.page, block: block, content: content, rewrite: Self.rewrite)
    #expect(
      held || Self.rewrite, "docs/serve-reference.md's \(block) differs from the code: make docs")
  }

  @Test func serveOptionsAreServesTable() throws {
    try hold(
      "serve-options",
      MarkdownReference.optionTable(
        ServeOptions.allOptions.map(\.described), sections: ServeOptions.sections))
  }

  @Test func goTrueRoutesAreTheRoutesServed() throws {
    try hold(
      "gotrue-routes", Self.routeTable(GoTrueRoutes.all + MailboxRoutes.all + ClockRoutes.all))
  }

  @Test func firebaseRoutesAreTheRoutesServed() throws {
    let server = try FirebaseTestServer()
    // The Firebase rows check their callers themselves (an API key, `Bearer owner`, this
    // machine), as FirebaseRoutes says; the table lists what they serve.
    let lines = Self.routeTable(FirebaseRoutes.served(server.emulation)).split(separator: "\n")
      .map { $0.split(separator: "|", omittingEmptySubsequences: false).dropLast(2) }
      .map { $0.joined(separator: "|") + "|" }
    try hold("firebase-routes", lines.joined(separator: "\n"))
  }

  /// The pages that tell of serve name only routes it answers, with their methods and their
  /// parameters' names, so a route renamed or removed cannot stay on a page.
  @Test(arguments: ["serve-gotrue.md", "serve-trust.md", "serve-firebase.md"])
  func everyRouteAPageNamesIsServed(page: String) throws {
    let server = try FirebaseTestServer()
    let servePage = ServePage(
      engine: server.emulation.engine, firebase: server.emulation, changes: ChangeSignal(),
      settings: [])
    let routes = Route.merged(
      GoTrueRoutes.all + MailboxRoutes.all + ClockRoutes.all + FirebaseRoutes.all(server.emulation)
        + PageRoutes.all(servePage))
    let text = try String(
      contentsOfFile: URL(filePath: Self.page).deletingLastPathComponent().appending(path: page)
        .path, encoding: .utf8)
    var named = 0
    for span in text.matches(of: /`((?:[A-Z]+ )?\/[^`\s]*)`/) {
      let words = span.output.1.split(separator: " ")
      let method = words.count == 2 ? HTTPMethod(rawValue: String(words[0])) : nil
      var path = (words.last ?? "").prefix { $0 != "?" }
      if path.hasPrefix("/auth/v1") { path = path.dropFirst("/auth/v1".count) }
      var parts = path.split(separator: "/")
      let isPrefix = path.hasSuffix("/") || parts.last == "*"
      if parts.last == "*" { parts.removeLast() }
      guard !parts.isEmpty else { continue }
      named += 1
      let served = routes.contains { route in
        Self.matches(route.pattern, parts, prefix: isPrefix)
          && (method.map(route.methods.contains) ?? true)
      }
      #expect(served, "docs/\(page) names \(span.output.1), which serve does not answer")
    }
    #expect(named > 5, "docs/\(page) names no routes")
  }

  /// Whether a page's path `parts` (all of a path, or its start when `prefix`) name `pattern`:
  /// a `{name}` part only as `{name}`, while `{}` stands for any part (`ID` on the pages).
  private static func matches(_ pattern: [Substring], _ parts: [Substring], prefix: Bool) -> Bool {
    for (index, part) in parts.enumerated() {
      guard index < pattern.count else { return false }
      if pattern[index] == "*" { return true }
      guard pattern[index] == "{}" || pattern[index] == part else { return false }
    }
    return prefix || parts.count == pattern.count
  }

  /// Routes as a Markdown table: path, methods, who may call them.
  static func routeTable(_ routes: [Route]) -> String {
    var lines = ["| Path | Methods | Who |", "|---|---|---|"]
    for route in Route.merged(routes) {
      let path = "/" + route.pattern.joined(separator: "/")
      var byAccess: [(String, [HTTPMethod])] = []
      for method in route.methods {
        let who = route.actions[method].map { describe($0.access) } ?? ""
        if let index = byAccess.firstIndex(where: { $0.0 == who }) {
          byAccess[index].1.append(method)
        } else {
          byAccess.append((who, [method]))
        }
      }
      for (who, methods) in byAccess {
        let every = HTTPMethod.allCases.filter { $0 != .options }
        let names = methods == every ? "any" : methods.map(\.rawValue).joined(separator: ", ")
        lines.append("| `\(path)` | \(names) | \(who) |")
      }
    }
    return lines.joined(separator: "\n")
  }

  private static func describe(_ access: RouteAccess) -> String {
    switch access {
    case .anyone: "anyone"
    case .user: "a signed-in user"
    case .admin: "an admin"
    case .local(let what): "this machine (\(what))"
    }
  }
}
