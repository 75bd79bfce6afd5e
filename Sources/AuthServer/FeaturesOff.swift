import GoTrue
import GoTrueEngine
import HTTPServer

/// What the engine does not offer (OAuth providers, SSO, passkeys, identity linking, the OAuth
/// server; phone and WebAuthn factors are answered by the `/factors` routes), answered the way
/// a GoTrue with the feature switched off answers: its status, code and message, never a bare
/// 404.
enum FeaturesOff {
  /// The providers `/settings` lists, all off but email (`settings.go`).
  static let externalProviders = [
    "anonymous_users", "apple", "azure", "bitbucket", "discord", "facebook", "snapchat", "figma",
    "fly", "github", "gitlab", "google", "keycloak", "kakao", "linkedin", "linkedin_oidc",
    "notion", "spotify", "slack", "slack_oidc", "workos", "twitch", "twitter", "email", "phone",
    "zoom",
  ]

  static let routes: [Route] = [
    Route("/authorize", [.get: authorize]),
    Route("/callback", [.get: callback, .post: callback]),
    Route("/sso", [.post: sso]),
    Route("/sso/*", [.get: sso, .post: sso]),
    Route("/user/identities/*", [.get: linking, .delete: linking]),
    Route("/passkeys/*", [.get: passkeys, .post: passkeys, .delete: passkeys]),
    Route("/oauth/*", [.get: oauthServer, .post: oauthServer, .delete: oauthServer]),
    Route("/admin/oauth/*", [.get: oauthServer, .post: oauthServer, .delete: oauthServer]),
    Route("/.well-known/jwks.json", [.get: keys]),
  ]

  /// `GET /authorize?provider=…`: no OAuth provider is enabled.
  @Sendable static func authorize(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    let provider = context.request.queryValue("provider") ?? ""
    let known = externalProviders.contains(provider.lowercased())
    throw .api(
      .invalid(
        known
          ? "Unsupported provider: provider is not enabled"
          : "Unsupported provider: Provider \(provider.prefix(40)) could not be found"))
  }

  /// `/callback` with no OAuth flow begun: back to the site with GoTrue's error in the query.
  @Sendable static func callback(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    let query = FormEncoding.encode([
      ("error", "invalid_request"), ("error_code", "bad_oauth_callback"),
      ("error_description", "OAuth state parameter missing"),
    ])
    return Answer.seeOther(context.engine.configuration.siteURL + "?" + query)
  }

  @Sendable static func sso(_ context: RouteContext) async throws(GoTrueFailure) -> HTTPResponse {
    throw disabled(404, .samlProviderDisabled, "SAML 2.0 is disabled")
  }

  @Sendable static func linking(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    throw disabled(404, .manualLinkingDisabled, "Manual linking is disabled")
  }

  @Sendable static func passkeys(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    throw disabled(404, .passkeyDisabled, "Passkeys are disabled")
  }

  @Sendable static func oauthServer(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    throw disabled(404, .featureDisabled, "OAuth server is disabled")
  }

  /// `GET /.well-known/jwks.json`: tokens are signed with a shared secret, so there are no
  /// public keys to publish.
  @Sendable static func keys(_ context: RouteContext) async throws(GoTrueFailure) -> HTTPResponse {
    Answer.json(JSONValue.object(["keys": .array([])]))
  }

  private static func disabled(_ status: Int, _ code: GoTrueErrorCode, _ message: String)
    -> GoTrueFailure
  {
    .api(GoTrueAPIError(status: status, code: code, message: message))
  }
}
