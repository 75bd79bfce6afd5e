import CommandLineOptions
import Foundation
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
    let lines = Self.routeTable(FirebaseRoutes.all(server.emulation)).split(separator: "\n")
      .map { $0.split(separator: "|", omittingEmptySubsequences: false).dropLast(2) }
      .map { $0.joined(separator: "|") + "|" }
    try hold("firebase-routes", lines.joined(separator: "\n"))
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
        let names = methods.map(\.rawValue).joined(separator: ", ")
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
