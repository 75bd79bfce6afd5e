import Foundation
import GoTrue
import HTTPClient
import HTTPServer
import SupabaseREST
import Testing

@testable import AuthServer

/// The client and the server share one wire contract (``GoTrueEndpoint`` and the body types):
/// every endpoint the Supabase client calls is walked through the client and the server, and
/// every endpoint of the contract has a route.
struct WireContractTests {
  /// A request to an endpoint the contract says is a user's or an admin's carries a bearer
  /// other than the API key, as GoTrue's route groups ask.
  private static func expectCredentials(_ request: HTTPClient.HTTPRequest, path: String) {
    let table = RouteTable(
      (GoTrueEndpoint.all + GoTrueEndpoint.mfa).map { endpoint in
        Route(endpoint) { _ in HTTPResponse(status: 200) }
      })
    guard let method = HTTPMethod(rawValue: request.method),
      let access = table.match(path)?.route.actions[method]?.access, access != .anyone
    else { return }
    let bearer = request.headers.first { $0.name.lowercased() == "authorization" }?.value
    let key = request.headers.first { $0.name.lowercased() == "apikey" }?.value
    #expect(bearer?.hasPrefix("Bearer ") == true, "\(request.method) \(path) sends no bearer")
    #expect(bearer != key.map { "Bearer " + $0 }, "\(request.method) \(path) sends the API key")
  }

  @Test func everyEndpointTheClientCallsIsServedAsTheContractSays() async throws {
    let server = try TestServer()
    let project = try SupabaseProject(
      url: "http://127.0.0.1:9999", key: server.engine.apiKey(role: "anon"))
    let transport = InProcessTransport(responder: server.responder, base: "http://127.0.0.1:9999")
    let client = SupabaseGoTrueClient(project: project, transport: transport)

    guard
      case .user(let created) = try await client.signUp(
        email: "ada@example.com", password: "secret123", data: ["plan": .string("pro")])
    else {
      Issue.record("a confirmation is needed first")
      return
    }
    #expect(created.userMetadata["plan"] == .string("pro"), "data reached the server")
    server.clock.advance(by: 61)
    try await client.resend(type: .signup, email: "ada@example.com")
    let confirmation = try #require(server.engine.outbox.newest(to: "ada@example.com"))
    let confirmed = try await client.verify(
      type: .signup, email: "ada@example.com", token: confirmation.code)
    #expect(confirmed.user.email == "ada@example.com")

    let session = try await client.signIn(email: "ada@example.com", password: "secret123")
    let refreshed = try await client.refresh(refreshToken: session.refreshToken)
    #expect(try await client.user(accessToken: refreshed.accessToken).id == created.id)
    let updated = try await client.updatePassword("secret456", accessToken: refreshed.accessToken)
    #expect(updated.id == created.id)

    server.clock.advance(by: 61)
    try await client.recover(email: "ada@example.com")
    let recovery = try #require(server.engine.outbox.newest(to: "ada@example.com"))
    let token = try #require(
      URLComponents(string: recovery.link)?.queryItems?.first { $0.name == "token" }?.value)
    let recovered = try await client.verify(type: .recovery, tokenHash: token)
    try await client.logout(accessToken: recovered.accessToken, scope: .others)
    try await client.deleteUser(accessToken: recovered.accessToken)
    #expect(try server.engine.accountCount() == 2, "only the demo accounts are left")
    let sent = transport.sent.withLock { $0 }
    #expect(sent.count > 10)
    for request in sent { Self.expectCredentials(request, path: transport.path(of: request)) }
  }

  @Test func everyEndpointOfTheContractHasARoute() async throws {
    let server = try TestServer()
    for endpoint in GoTrueEndpoint.all {
      let path = endpoint.path("00000000-0000-0000-0000-000000000000")
      let answer = await AuthServerTests.answer(
        of: server.responder, method: endpoint.method, path: path,
        query: endpoint.grant.map { [("grant_type", $0)] } ?? [], headers: [], body: [])
      #expect(answer.status != 404 && answer.status != 405, "\(endpoint)")
    }
  }
}
