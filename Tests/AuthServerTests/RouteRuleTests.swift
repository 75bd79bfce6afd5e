import GoTrue
import HTTPServer
import Testing

@testable import AuthServer

/// Each route says who may call it and what it spends, and the responder checks that before the
/// handler runs: a user's route without a bearer, or an admin's with a user's, is refused
/// before its body is read.
struct RouteRuleTests {
  @Test func everyGoTrueRouteCarriesItsEndpointsAccess() {
    let table = RouteTable(GoTrueRoutes.all)
    for endpoint in GoTrueEndpoint.all + GoTrueEndpoint.mfa {
      let found = table.match(endpoint.path("x", "y"))
      let method = HTTPMethod(rawValue: endpoint.method)
      let action = method.flatMap { found?.route.actions[$0] }
      #expect(action?.access == RouteAccess(endpoint.access), "\(endpoint)")
    }
  }

  @Test(arguments: [
    (HTTPMethod.get, "/user"), (.put, "/user"), (.delete, "/user"), (.post, "/logout"),
    (.get, "/reauthenticate"), (.post, "/factors"), (.delete, "/user/identities/x"),
  ])
  func aUsersRouteWithoutABearerIsRefusedBeforeItsBody(method: HTTPMethod, path: String)
    async throws
  {
    let server = try TestServer()
    // A broken body: were it read first, the answer would say so.
    let reply = await server.send(method, path, json: "{")
    #expect(reply.status == 401, "\(path)")
    #expect(reply.object?["error_code"] as? String == "no_authorization", "\(path)")
  }

  @Test func anAdminsRouteRefusesAUsersTokenBeforeItsBody() async throws {
    let server = try TestServer()
    let session = try await server.signIn()
    let token = try #require(session["access_token"] as? String)
    let reply = await server.send(
      .post, "/admin/users", json: "{", headers: [("Authorization", "Bearer " + token)])
    #expect(reply.status == 403)
    #expect(reply.object?["error_code"] as? String == "not_admin")
  }

  @Test func healthAndSettingsAreRowsAnsweredAtOnceAndTheirOtherMethodsAreNotAllowed() throws {
    let server = try TestServer()
    let request = HTTPRequest(method: .get, path: "/health", peer: "127.0.0.1:1")
    guard case .answer(let health) = server.responder.route(request) else {
      Issue.record("/health was not answered on the event loop")
      return
    }
    #expect(health.status == 200)
    let post = HTTPRequest(method: .post, path: "/settings", peer: "127.0.0.1:1")
    guard case .answer(let refused) = server.responder.route(post) else {
      Issue.record("POST /settings became work")
      return
    }
    #expect(refused.status == 405)
    #expect(refused.headers.filter { $0.name == "Allow" }.map(\.value) == ["GET"])
  }

  @Test func aPathWithoutParametersIsFoundByItselfBeforeAnyPattern() throws {
    let table = RouteTable([
      Route("/sso/*", [.get: { _ in HTTPResponse(status: 418) }]),
      Route("/sso/saml/metadata", [.get: { _ in HTTPResponse(status: 200) }]),
      Route("/admin/users/{}", [.get: { _ in HTTPResponse(status: 201) }]),
    ])
    #expect(table.match("//sso/saml/metadata/")?.route.pattern.count == 3)
    #expect(table.match("/sso/other")?.route.pattern.last == "*")
    #expect(table.match("/admin/users/abc")?.parameters == ["abc"])
    #expect(table.match("/admin/users") == nil)
  }

  @Test func theOutboxRefusesAForeignPageBeforeItsHandler() async throws {
    let server = try TestServer()
    let reply = await server.send(
      .get, "/api/v1/messages", headers: [("Origin", "https://evil.example")])
    #expect(reply.status == 403)
    #expect(String(decoding: reply.body, as: UTF8.self).contains("the outbox"))
  }
}

/// `GET /admin/sso/providers`: GoTrue answers an admin with its providers even with SAML off;
/// a stranger gets the admin check first.
struct SSOProviderListTests {
  @Test func anAdminGetsAnEmptyListAndAStrangerTheAdminCheck() async throws {
    let server = try TestServer()
    let listed = await server.send(.get, "/admin/sso/providers", headers: server.admin)
    #expect(listed.status == 200)
    #expect((listed.object?["items"] as? [Any])?.isEmpty == true)
    let stranger = await server.send(.get, "/auth/v1/admin/sso/providers")
    #expect(stranger.status == 401)
    #expect(stranger.object?["error_code"] as? String == "no_authorization")
  }
}
