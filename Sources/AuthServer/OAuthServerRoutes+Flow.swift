import AccountStore
import GoTrue
import GoTrueEngine
import HTTPServer

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The OAuth server's authorization-code flow (GoTrue's `oauthserver/authorize.go` and
/// `handlers.go`): `GET /oauth/authorize` to the site's consent page, the page's
/// `/oauth/authorizations/{id}` routes for the signed-in user, `POST /oauth/token` for the
/// client, and the user's grants.
extension OAuthServerRoutes {
  static let flow: [Route] = [
    Route("/oauth/authorize", [.get: authorize]),
    Route("/oauth/authorizations/{authorization_id}", actions: [.get: user(details)]),
    Route("/oauth/authorizations/{authorization_id}/consent", actions: [.post: user(consent)]),
    Route("/oauth/token", [.post: token]),
    Route("/oauth/userinfo", actions: [.get: user(userInfo)]),
    Route("/user/oauth/grants", actions: [.get: user(grants), .delete: user(revoke)]),
  ]

  @Sendable static func authorize(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    let query = { (name: String) in context.request.queryValue(name) ?? "" }
    var request = OAuthAuthorizeRequest()
    request.clientID = query("client_id")
    request.redirectURI = query("redirect_uri")
    request.responseType = query("response_type")
    request.scope = query("scope")
    request.state = query("state")
    request.resource = query("resource")
    request.codeChallenge = query("code_challenge")
    request.codeChallengeMethod = query("code_challenge_method")
    request.nonce = query("nonce")
    return found(location(try context.engine.beginOAuthAuthorization(request)))
  }

  /// `GET /oauth/authorizations/{id}`: what the consent page shows, or where an
  /// authorization already consented to was approved to.
  @Sendable static func details(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    let engine = context.engine
    _ = try await engine.user(accessToken: context.accessToken)
    try engine.checkOAuthOrigin(context.request.header("Origin"))
    let view = try engine.oauthAuthorization(
      context.parameter("authorization_id"), accessToken: context.accessToken)
    switch view {
    case .approved(let redirect):
      return Answer.json(JSONValue.object(["redirect_url": .string(location(redirect))]))
    case .details(let authorization, let client, let user):
      var members: [String: JSONValue] = [
        "authorization_id": .string(authorization.authorizationID),
        "client": clientDetails(client),
        "user": .object(
          user.email.isEmpty
            ? ["id": .string(user.id)] : ["id": .string(user.id), "email": .string(user.email)]),
      ]
      if !authorization.redirectURI.isEmpty {
        members["redirect_uri"] = .string(authorization.redirectURI)
      }
      if !authorization.scope.isEmpty { members["scope"] = .string(authorization.scope) }
      return Answer.json(JSONValue.object(members))
    }
  }

  /// `POST /oauth/authorizations/{id}/consent` with `{"action": "approve"|"deny"}`.
  @Sendable static func consent(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    let engine = context.engine
    _ = try await engine.user(accessToken: context.accessToken)
    try engine.checkOAuthOrigin(context.request.header("Origin"))
    let body = try OAuthBody(
      context.request.body,
      refusal: GoTrueAPIError(status: 400, code: .badJSON, message: "invalid JSON body"))
    let action = try body.string("action") ?? ""
    guard action == "approve" || action == "deny" else {
      throw .api(.invalid("action must be 'approve' or 'deny'"))
    }
    let redirect = try engine.consentToOAuthAuthorization(
      context.parameter("authorization_id"), approve: action == "approve",
      accessToken: context.accessToken)
    return Answer.json(JSONValue.object(["redirect_url": .string(location(redirect))]))
  }

  /// `POST /oauth/token`: the client authenticated first (GoTrue's `requireOAuthClientAuth`),
  /// then the grant; the answer holds the tokens alone, no user.
  @Sendable static func token(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    let request = context.request
    let client = try context.engine.authenticateOAuthClient(try credentials(request))
    var grant = OAuthTokenRequest()
    if isJSON(request) {
      let body = try OAuthBody(
        request.body, refusal: .oauth("invalid_request", "Invalid JSON body"))
      grant.grantType = try body.string("grant_type") ?? ""
      grant.code = try body.string("code") ?? ""
      grant.refreshToken = try body.string("refresh_token") ?? ""
      grant.redirectURI = try body.string("redirect_uri") ?? ""
      grant.codeVerifier = try body.string("code_verifier") ?? ""
      grant.resource = try body.string("resource") ?? ""
    } else {
      let field = formValue(request)
      grant.grantType = field("grant_type")
      grant.code = field("code")
      grant.refreshToken = field("refresh_token")
      grant.redirectURI = field("redirect_uri")
      grant.codeVerifier = field("code_verifier")
    }
    let tokens = try await context.engine.oauthToken(grant, client: client)
    var members: [String: JSONValue] = [
      "access_token": .string(tokens.session.accessToken),
      "token_type": .string(tokens.session.tokenType),
      "expires_in": .number(Double(tokens.session.expiresIn)),
      "refresh_token": .string(tokens.session.refreshToken),
    ]
    if let idToken = tokens.idToken { members["id_token"] = .string(idToken) }
    return Answer.json(JSONValue.object(members))
  }

  /// The client credentials of a token request (GoTrue's `ExtractClientCredentials`): HTTP
  /// Basic, else the JSON or form body's `client_id` and `client_secret`.
  private static func credentials(_ request: HTTPRequest) throws(GoTrueFailure)
    -> OAuthClientCredentials?
  {
    let refuse = { (reason: String) in
      GoTrueFailure.api(
        GoTrueAPIError(
          status: 400, code: .invalidCredentials, message: "Invalid client credentials: " + reason))
    }
    if let header = request.header("Authorization"), header.hasPrefix("Basic ") {
      guard let decoded = Data(base64Encoded: String(header.dropFirst(6))) else {
        throw refuse("invalid basic auth encoding")
      }
      let text = String(decoding: decoded, as: UTF8.self)
      guard let colon = text.firstIndex(of: ":") else { throw refuse("invalid basic auth format") }
      return OAuthClientCredentials(
        clientID: String(text[..<colon]), secret: String(text[text.index(after: colon)...]),
        method: "client_secret_basic")
    }
    var clientID = ""
    var secret = ""
    if isJSON(request) {
      let body = try OAuthBody(
        request.body,
        refusal: GoTrueAPIError(
          status: 400, code: .invalidCredentials,
          message: "Invalid client credentials: failed to parse JSON body"))
      clientID = try body.string("client_id") ?? ""
      secret = try body.string("client_secret") ?? ""
    } else {
      let field = formValue(request)
      clientID = field("client_id")
      secret = field("client_secret")
    }
    if clientID.isEmpty { throw refuse("client_id is required") }
    return OAuthClientCredentials(
      clientID: clientID, secret: secret,
      method: secret.isEmpty ? "none" : "client_secret_post")
  }

  /// Whether the request says its body is JSON (GoTrue looks for `application/json` anywhere
  /// in `Content-Type`).
  private static func isJSON(_ request: HTTPRequest) -> Bool {
    request.header("Content-Type")?.lowercased().contains("application/json") ?? false
  }

  /// Go's `r.FormValue`: the form body's first value of a field, else the query's.
  private static func formValue(_ request: HTTPRequest) -> (String) -> String {
    let fields = (request.formFields ?? []) + request.query
    return { name in fields.first { $0.name == name }?.value ?? "" }
  }

  /// `GET /oauth/userinfo` (OIDC Core 5.3).
  @Sendable static func userInfo(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    Answer.json(try context.engine.oauthUserInfo(accessToken: context.accessToken))
  }

  @Sendable static func grants(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    let grants = try context.engine.oauthGrants(accessToken: context.accessToken)
    return Answer.json(
      JSONValue.array(
        grants.map { grant in
          .object([
            "client": clientDetails(grant.client),
            "scopes": .array(grant.scopes.map(JSONValue.string)),
            "granted_at": time(grant.grantedAt),
          ])
        }))
  }

  @Sendable static func revoke(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    _ = try await context.engine.user(accessToken: context.accessToken)
    try context.engine.revokeOAuthGrant(
      clientID: context.request.queryValue("client_id") ?? "", accessToken: context.accessToken)
    return Answer.noContent
  }

  /// A client as the consent page and the grants show it (`ClientDetailsResponse`).
  private static func clientDetails(_ client: OAuthClientRecord) -> JSONValue {
    var members: [String: JSONValue] = ["id": .string(client.id)]
    if let name = client.name, !name.isEmpty { members["name"] = .string(name) }
    if let uri = client.uri, !uri.isEmpty { members["uri"] = .string(uri) }
    if let logo = client.logoURI, !logo.isEmpty { members["logo_uri"] = .string(logo) }
    return .object(members)
  }

  /// Where `redirect` sends the browser, its query written as Go's `url.Values.Encode` does.
  static func location(_ redirect: OAuthRedirect) -> String {
    switch redirect {
    case .consent(let url, let authorizationID):
      return url + "?authorization_id=" + authorizationID
    case .code(let uri, let code, let state):
      return RedirectURL.settingQuery(uri, [("code", code)] + (state.map { [("state", $0)] } ?? []))
    case .error(let uri, let error, let description, let state):
      return RedirectURL.settingQuery(
        uri,
        [("error", error), ("error_description", description)]
          + (state.map { [("state", $0)] } ?? []))
    }
  }

  /// `302 Found` to `location`, with the small page Go's `http.Redirect` writes for a GET.
  static func found(_ location: String) -> HTTPResponse {
    let escaped = location.replacing("&", with: "&amp;").replacing("<", with: "&lt;")
      .replacing(">", with: "&gt;").replacing("\"", with: "&quot;").replacing("'", with: "&#39;")
    return HTTPResponse(
      status: 302,
      headers: [("Location", location), ("Content-Type", "text/html; charset=utf-8")],
      body: Array("<a href=\"\(escaped)\">Found</a>.\n\n".utf8))
  }
}
