import HTTPServer
import IdentityToolkit
import Testing

@testable import AuthServer

/// The Firebase surface is the operation table: every operation has its route, with the access
/// the table says; every route is an operation; each legacy v3 name leads to its operation.
struct FirebaseOperationTableTests {
  @Test func everyOperationIsServedOnceAndEveryRouteIsAnOperation() throws {
    let served = FirebaseRoutes.handlers.map(\.0)
    #expect(Set(served) == Set(IdentityToolkitOperation.all))
    #expect(served.count == IdentityToolkitOperation.all.count, "an operation served twice")
    let server = try FirebaseTestServer()
    let table = RouteTable(FirebaseRoutes.all(server.emulation))
    for operation in IdentityToolkitOperation.all {
      let path = operation.path(project: "demo-app")
      let route = table.match(operation.host.isEmpty ? path : "/" + operation.host + path)
      let method = try #require(HTTPMethod(rawValue: operation.method))
      #expect(route?.route.actions[method] != nil, "\(operation) has no route")
    }
  }

  @Test func eachLegacyNameIsRewrittenToItsOperation() {
    for (name, operation) in IdentityToolkitOperation.byLegacyName {
      #expect(
        FirebaseRoutes.rewritten(FirebaseRoutes.relyingParty + name) == operation.emulatorPath)
    }
    #expect(IdentityToolkitOperation.byLegacyName["verifyPassword"] == .signInWithPassword)
    let unknown = FirebaseRoutes.relyingParty + "publicKeys"
    #expect(FirebaseRoutes.rewritten(unknown) == unknown)
  }

  @Test(arguments: [
    (IdentityToolkitOperation.signUp, "/v1/accounts:signUp", IdentityToolkitOperation.Access.key),
    (.adminLookup, "/v1/projects/{project}/accounts:lookup", .owner),
    (.token, "/v1/token", .keyOnly),
    (.oobCodes, "/emulator/v1/projects/{project}/oobCodes", .local),
    (.action, "/emulator/action", .open),
  ])
  func anOperationSaysWhereAndWho(
    operation: IdentityToolkitOperation, path: String, access: IdentityToolkitOperation.Access
  ) {
    #expect(operation.path == path && operation.access == access)
  }
}

/// `GET /v1/recaptchaParams` (and v3 `getRecaptchaParam`): the emulator's fake parameters, for an
/// API key.
struct RecaptchaParamsTests {
  @Test func theEmulatorsFakeParametersForAnAPIKey() async throws {
    let server = try FirebaseTestServer()
    for path in [
      "\(FirebaseTestServer.v1)/recaptchaParams",
      "/www.googleapis.com/identitytoolkit/v3/relyingparty/getRecaptchaParam",
    ] {
      let reply = await server.send(.get, path, query: [("key", "fake-api-key")])
      #expect(reply.status == 200, "\(path)")
      #expect(reply.object?["kind"] as? String == "identitytoolkit#GetRecaptchaParamResponse")
      #expect(
        reply.object?["recaptchaSiteKey"] as? String == "Fake-key__Do-not-send-this-to-Recaptcha_")
      #expect(
        (reply.object?["recaptchaStoken"] as? String)?.hasPrefix("This-is-a-fake-token") == true)
    }
    let keyless = await server.send(.get, "\(FirebaseTestServer.v1)/recaptchaParams")
    #expect(keyless.status == 403)
    #expect(keyless.googleMessage == "The request is missing a valid API key.")
  }
}
