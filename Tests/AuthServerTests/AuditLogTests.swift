import Foundation
import GoTrue
import HTTPServer
import Testing

@testable import AuthServer

/// `GET /admin/audit`: the log GoTrue keeps of sign-ups, sign-ins, refreshes, logouts and
/// changes, in its entry shape, newest first, paged and searched as GoTrue searches it.
struct AuditLogTests {
  private func entries(_ server: TestServer, _ query: [(String, String)] = []) async
    -> (reply: Reply, entries: [[String: Any]])
  {
    let reply = await server.send(.get, "/admin/audit", query: query, headers: server.admin)
    let list = (try? JSONSerialization.jsonObject(with: Data(reply.body))) as? [[String: Any]]
    return (reply, list ?? [])
  }

  private func actions(_ list: [[String: Any]]) -> [String] {
    list.compactMap { ($0["payload"] as? [String: Any])?["action"] as? String }
  }

  @Test func aUsersDayIsLoggedNewestFirstInGoTruesShape() async throws {
    let server = try TestServer()
    let signUp = await server.send(
      .post, "/signup", json: #"{"email":"new@example.com","password":"secret123"}"#)
    #expect(signUp.status == 200)
    let session = try await server.signIn()
    let refresh = try #require(session["refresh_token"] as? String)
    let refreshed = await server.send(
      .post, "/token", json: #"{"refresh_token":"\#(refresh)"}"#,
      query: [("grant_type", "refresh_token")])
    let token = try #require(refreshed.object?["access_token"] as? String)
    let bearer = [("Authorization", "Bearer " + token)]
    #expect(
      await server.send(.put, "/user", json: #"{"data":{"a":1}}"#, headers: bearer).status == 200)
    #expect(await server.send(.post, "/logout", headers: bearer).status == 204)

    let (reply, list) = await entries(server)
    #expect(reply.status == 200)
    #expect(
      actions(list) == [
        "logout", "user_modified", "token_refreshed", "token_revoked", "login",
        "user_confirmation_requested",
      ])
    #expect(reply.header("X-Total-Count") == "6")
    let login = try #require(
      list.first { ($0["payload"] as? [String: Any])?["action"] as? String == "login" })
    #expect(Set(login.keys) == ["id", "payload", "created_at", "ip_address"])
    let payload = try #require(login["payload"] as? [String: Any])
    #expect(payload["actor_username"] as? String == "test@example.com")
    #expect(payload["log_type"] as? String == "account")
    #expect(payload["actor_via_sso"] as? Bool == false)
    #expect((payload["traits"] as? [String: String]) == ["provider": "email"])
    #expect(login["created_at"] as? String == "2025-01-01T00:00:00Z")
    // No secret reaches the log.
    #expect(!reply.text.contains(refresh) && !reply.text.contains("secret123"))
  }

  @Test func anAdminsActionsNameTheServiceRoleAndTheUserActedOn() async throws {
    let server = try TestServer()
    let created = await server.send(
      .post, "/admin/users", json: #"{"email":"made@example.com","password":"secret123"}"#,
      headers: server.admin)
    let id = try #require(created.object?["id"] as? String)
    #expect(await server.send(.delete, "/admin/users/\(id)", headers: server.admin).status == 200)
    let (_, list) = await entries(server)
    #expect(actions(list) == ["user_deleted", "user_signedup"])
    let payload = try #require(list.last?["payload"] as? [String: Any])
    #expect(payload["actor_id"] as? String == "00000000-0000-0000-0000-000000000000")
    #expect(payload["actor_username"] as? String == "service_role")
    #expect(payload["log_type"] as? String == "team")
    let traits = try #require(payload["traits"] as? [String: String])
    #expect(
      traits == [
        "user_id": id, "user_email": "made@example.com", "user_phone": "", "provider": "email",
      ])
  }

  @Test func theLogIsPagedAndSearchedByScope() async throws {
    let server = try TestServer()
    for _ in 0..<3 { _ = try await server.signIn() }
    _ = await server.send(.post, "/recover", json: #"{"email":"test@example.com"}"#)
    let page = await entries(server, [("page", "2"), ("per_page", "3")])
    #expect(page.entries.count == 1 && page.reply.header("X-Total-Count") == "4")
    let logins = await entries(server, [("query", "action:LOG")])
    #expect(actions(logins.entries) == ["login", "login", "login"])
    let users = await entries(server, [("query", "type:user")])
    #expect(actions(users.entries) == ["user_recovery_requested"])
    let author = await entries(server, [("query", "author:nobody")])
    #expect(author.entries.isEmpty && author.reply.text == "[]")
    let bad = await server.send(
      .get, "/admin/audit", query: [("query", "who:me")], headers: server.admin)
    #expect(bad.status == 400 && bad.object?["msg"] as? String == "Invalid query scope: who:me")
    let stranger = await server.send(.get, "/admin/audit")
    #expect(stranger.status == 401)
  }
}
