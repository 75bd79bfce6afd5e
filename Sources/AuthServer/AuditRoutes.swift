import AccountStore
import GoTrue
import GoTrueEngine
import HTTPServer

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `GET /admin/audit?page=&per_page=&query=` (GoTrue's `api/audit.go`): the audit log, newest
/// first, one page with `X-Total-Count` and `Link`; `query` is `author:`, `action:` or `type:`
/// followed by text any entry shown holds in those members.
enum AuditRoutes {
  static let all: [Route] = [
    Route(
      "/admin/audit",
      actions: [.get: Route.Action(access: .admin, limit: nil, work: .handler(auditLog))])
  ]

  /// The payload members each scope of `query` searches (GoTrue's `filterColumnMap`).
  static let scopes: [String: [String]] = [
    "author": ["actor_username", "actor_name"], "action": ["action"], "type": ["log_type"],
  ]

  @Sendable static func auditLog(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    let request = context.request
    let pagination = try Pagination(request)
    var members: [String] = []
    var value = ""
    if let query = request.queryValue("query"), !query.isEmpty {
      let parts = query.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
      guard parts.count == 2, let scope = scopes[String(parts[0])] else {
        throw .api(.invalid("Invalid query scope: \(query.prefix(100))"))
      }
      members = scope
      value = String(parts[1])
    }
    let found = try context.engine.auditLog(
      members: members, value: value, limit: pagination.limit, offset: pagination.offset)
    var body: [UInt8] = [UInt8(ascii: "[")]
    for (index, entry) in found.entries.enumerated() {
      if index > 0 { body.append(UInt8(ascii: ",")) }
      var writer = JSONWriter()
      writer.value(
        .object([
          "id": .string(entry.id),
          "created_at": .string(GoTrueCoding.timestamp(Date(millis: entry.createdAt))),
          "ip_address": .string(entry.ipAddress),
          "payload": JSONValue(parsing: Array(entry.payload.utf8)) ?? .object([:]),
        ]))
      body += writer.result ?? []
    }
    body.append(UInt8(ascii: "]"))
    return HTTPResponse(
      status: 200,
      headers: [("Content-Type", "application/json")]
        + pagination.headers(for: request, total: found.total), body: body)
  }
}
