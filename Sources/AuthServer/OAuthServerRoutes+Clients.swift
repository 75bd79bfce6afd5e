import AccountStore
import GoTrue
import GoTrueEngine
import HTTPServer

/// The OAuth server's client registration (GoTrue's `oauthserver/handlers.go`): an admin's
/// `/admin/oauth/clients` routes, and `POST /oauth/clients/register` for anyone when dynamic
/// registration is allowed. A client's secret is in the answer that made it, and never again.
extension OAuthServerRoutes {
  static let clients: [Route] = [
    Route("/admin/oauth/clients", actions: [.post: admin(create), .get: admin(list)]),
    Route(
      "/admin/oauth/clients/{client_id}",
      actions: [.get: admin(show), .put: admin(update), .delete: admin(delete)]),
    Route(
      "/admin/oauth/clients/{client_id}/regenerate_secret", actions: [.post: admin(regenerate)]
    ),
    Route("/oauth/clients/register", [.post: register]),
  ]

  @Sendable static func create(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    let issued = try context.engine.registerOAuthClient(
      try registration(context.request), dynamic: false)
    return Answer.json(answer(issued.client, secret: issued.secret), status: 201)
  }

  /// `POST /oauth/clients/register` (RFC 7591), limited as GoTrue limits it per client.
  @Sendable static func register(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    guard context.engine.configuration.oauthServer.allowDynamicRegistration else {
      throw .api(
        GoTrueAPIError(
          status: 403, code: .oauthDynamicClientRegistrationDisabled,
          message: "Dynamic client registration is not enabled"))
    }
    let issued = try context.engine.registerOAuthClient(
      try registration(context.request), dynamic: true)
    return Answer.json(answer(issued.client, secret: issued.secret), status: 201)
  }

  @Sendable static func list(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    let clients = try context.engine.oauthClients()
    // Go leaves out an empty list (`omitempty`).
    return Answer.json(
      JSONValue.object(
        clients.isEmpty ? [:] : ["clients": .array(clients.map { answer($0, secret: nil) })]))
  }

  @Sendable static func show(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    Answer.json(answer(try context.engine.oauthClient(id: context.parameter("client_id"))))
  }

  @Sendable static func update(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    let id = context.parameter("client_id")
    // The client is loaded (404) before the body is read.
    _ = try context.engine.oauthClient(id: id)
    let body = try OAuthBody(context.request.body, refusal: OAuthBody.invalid)
    var changes = OAuthClientChanges()
    changes.redirectURIs = try body.strings("redirect_uris")
    changes.grantTypes = try body.strings("grant_types")
    changes.name = try body.string("client_name")
    changes.uri = try body.string("client_uri")
    changes.logoURI = try body.string("logo_uri")
    changes.tokenEndpointAuthMethod = try body.string("token_endpoint_auth_method")
    return Answer.json(answer(try context.engine.updateOAuthClient(id: id, changes)))
  }

  @Sendable static func delete(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    try context.engine.deleteOAuthClient(id: context.parameter("client_id"))
    return Answer.noContent
  }

  @Sendable static func regenerate(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    let issued = try context.engine.regenerateOAuthClientSecret(
      id: context.parameter("client_id"))
    return Answer.json(answer(issued.client, secret: issued.secret))
  }

  /// A registration's body (GoTrue's `OAuthServerClientRegisterParams`).
  private static func registration(_ request: HTTPRequest) throws(GoTrueFailure)
    -> OAuthClientRegistration
  {
    let body = try OAuthBody(request.body, refusal: OAuthBody.invalid)
    var registration = OAuthClientRegistration()
    registration.redirectURIs = try body.strings("redirect_uris") ?? []
    registration.clientType = try body.string("client_type") ?? ""
    registration.tokenEndpointAuthMethod = try body.string("token_endpoint_auth_method") ?? ""
    registration.grantTypes = try body.strings("grant_types") ?? []
    registration.name = try body.string("client_name") ?? ""
    registration.uri = try body.string("client_uri") ?? ""
    registration.logoURI = try body.string("logo_uri") ?? ""
    return registration
  }

  /// A client as GoTrue answers it (`OAuthServerClientResponse`), its empty fields left out.
  static func answer(_ client: OAuthClientRecord, secret: String? = nil) -> JSONValue {
    let list = { (text: String) -> [JSONValue] in
      text.isEmpty
        ? []
        : text.split(separator: ",", omittingEmptySubsequences: false).map {
          .string(String($0))
        }
    }
    var members: [String: JSONValue] = [
      "client_id": .string(client.id), "client_type": .string(client.clientType),
      "response_types": .array([.string("code")]),
      "registration_type": .string(client.registrationType),
      "created_at": time(client.createdAt), "updated_at": time(client.updatedAt),
    ]
    if let secret, !secret.isEmpty, client.clientType == "confidential" {
      members["client_secret"] = .string(secret)
    }
    let uris = list(client.redirectURIs)
    if !uris.isEmpty { members["redirect_uris"] = .array(uris) }
    if !client.tokenEndpointAuthMethod.isEmpty {
      members["token_endpoint_auth_method"] = .string(client.tokenEndpointAuthMethod)
    }
    let grants = list(client.grantTypes)
    if !grants.isEmpty { members["grant_types"] = .array(grants) }
    if let name = client.name, !name.isEmpty { members["client_name"] = .string(name) }
    if let uri = client.uri, !uri.isEmpty { members["client_uri"] = .string(uri) }
    if let logo = client.logoURI, !logo.isEmpty { members["logo_uri"] = .string(logo) }
    return .object(members)
  }
}
