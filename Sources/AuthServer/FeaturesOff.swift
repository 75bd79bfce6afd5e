import GoTrue
import GoTrueEngine
import HTTPServer

/// What the engine does not offer (OAuth providers, SSO, passkeys, identity linking; phone and WebAuthn factors are answered by the `/factors` routes), answered the way
/// a GoTrue with the feature switched off answers: its status, code and message, never a bare
/// 404. An email user's one identity cannot be unlinked, as in GoTrue, and with no OAuth
/// provider there is nothing to link.
enum FeaturesOff {
  /// The providers `/settings` lists, all off but email (`settings.go`).
  static let externalProviders = [
    "anonymous_users", "apple", "azure", "bitbucket", "discord", "facebook", "snapchat", "figma",
    "fly", "github", "gitlab", "google", "keycloak", "kakao", "linkedin", "linkedin_oidc",
    "notion", "spotify", "slack", "slack_oidc", "workos", "twitch", "twitter", "email", "phone",
    "zoom",
  ]

  /// The providers GoTrue's `Provider` knows by name (`api/external.go`): each is off here.
  static let oauthProviders: Set<String> = [
    "apple", "azure", "bitbucket", "discord", "facebook", "figma", "fly", "github", "gitlab",
    "google", "kakao", "keycloak", "linkedin", "linkedin_oidc", "notion", "snapchat", "spotify",
    "slack", "slack_oidc", "twitch", "twitter", "x", "vercel_marketplace", "workos", "zoom",
  ]

  static let routes: [Route] = [
    Route("/authorize", [.get: authorize]),
    Route("/callback", [.get: callback, .post: callback]),
    Route.whole("/sso/*", sso),
    Route(
      "/user/identities/authorize",
      actions: [.get: Route.Action(access: .user, limit: nil, work: .handler(linkIdentity))]),
    Route(.deleteIdentity, unlinkIdentity),
    Route.whole("/passkeys/*", passkeys),
    Route("/admin/users/{user_id}/passkeys", actions: [.get: admin(adminPasskeys)]),
    Route(
      "/admin/users/{user_id}/passkeys/{passkey_id}", actions: [.delete: admin(adminPasskey)]),
    Route.whole("/admin/custom-providers/*", access: .admin, customProviders),
    Route.whole("/scim/v2/*", scim),
  ]

  /// `GET /authorize?provider=…`: no OAuth provider is enabled.
  @Sendable static func authorize(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    // GoTrue lowercases the name first; `custom:…` names a custom provider, which are off.
    let provider = (context.request.queryValue("provider") ?? "").lowercased()
    let reason =
      provider.hasPrefix("custom:")
      ? "custom OAuth providers are disabled"
      : oauthProviders.contains(provider)
        ? "provider is not enabled" : "Provider \(provider.prefix(40)) could not be found"
    throw .api(.invalid("Unsupported provider: " + reason))
  }

  /// `/callback` with no OAuth flow begun: back to the site with GoTrue's error in the query.
  /// GoTrue's `loadFlowState` redirects and then returns the error too, which Go writes after
  /// the redirect: a `GET` gets `http.Redirect`'s page then the error's JSON, any other method
  /// only the JSON, its type sniffed by Go as plain text (the redirect fixed the headers).
  @Sendable static func callback(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    let query = FormEncoding.encode([
      ("error", "invalid_request"), ("error_code", "bad_oauth_callback"),
      ("error_description", "OAuth state parameter missing"),
    ])
    let location = context.engine.configuration.siteURL + "?" + query
    let error = Answer.error(
      GoTrueAPIError(
        status: 400, code: .badOAuthCallback, message: "OAuth state parameter missing"),
      for: context.request)
    var answer = Answer.seeOther(location)
    if context.request.method == .get {
      answer.body += error.body
    } else {
      answer.headers = [("Location", location), ("Content-Type", "text/plain; charset=utf-8")]
      answer.body = error.body
    }
    return answer
  }

  @Sendable static func sso(_ context: RouteContext) async throws(GoTrueFailure) -> HTTPResponse {
    throw disabled(404, .samlProviderDisabled, "SAML 2.0 is disabled")
  }

  /// `GET /user/identities/authorize`: for a signed-in user, linking is off (GoTrue's
  /// `MANUAL_LINKING_ENABLED`), or on with no OAuth provider to link.
  @Sendable static func linkIdentity(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    _ = try await context.engine.user(accessToken: context.accessToken)
    try requireManualLinking(context)
    return try await authorize(context)
  }

  /// `DELETE /user/identities/{id}`: an email user has one identity, which GoTrue never lets
  /// go (an anonymous user has none).
  @Sendable static func unlinkIdentity(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    let user = try await context.engine.user(accessToken: context.accessToken)
    try requireManualLinking(context)
    guard UUIDText.isValid(context.parameter("identity_id")) else {
      throw disabled(404, .validationFailed, "identity_id must be an UUID")
    }
    if (user.identities ?? []).count <= 1 {
      throw disabled(
        422, .singleIdentityNotDeletable, "User must have at least 1 identity after unlinking")
    }
    throw disabled(422, .identityNotFound, "Identity doesn't exist")
  }

  private static func requireManualLinking(_ context: RouteContext) throws(GoTrueFailure) {
    guard context.engine.configuration.manualLinking else {
      throw disabled(404, .manualLinkingDisabled, "Manual linking is disabled")
    }
  }

  /// `GET /admin/users/{user_id}/passkeys` (GoTrue's `AdminPasskeyList`, served with passkeys
  /// off): the user's passkeys, of which there are none.
  @Sendable static func adminPasskeys(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    try context.engine.loadUser(context.parameter("user_id"))
    return Answer.json(JSONValue.array([]))
  }

  /// `DELETE /admin/users/{user_id}/passkeys/{passkey_id}`: no passkey is there.
  @Sendable static func adminPasskey(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    try context.engine.loadUser(context.parameter("user_id"))
    throw disabled(404, .validationFailed, "Passkey not found")
  }

  /// `/admin/custom-providers…` (GoTrue's `requireCustomOAuthEnabled`, after the admin check).
  @Sendable static func customProviders(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    throw disabled(404, .featureDisabled, "Custom OAuth providers are disabled")
  }

  /// `/scim/v2/…` (GoTrue's `requireScimServerEnabled`).
  @Sendable static func scim(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    throw disabled(404, .featureDisabled, "SCIM server is disabled")
  }

  private static func admin(_ handler: @escaping Route.Handler) -> Route.Action {
    Route.Action(access: .admin, limit: nil, work: .handler(handler))
  }

  @Sendable static func passkeys(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    throw disabled(404, .passkeyDisabled, "Passkeys are disabled")
  }

  private static func disabled(_ status: Int, _ code: GoTrueErrorCode, _ message: String)
    -> GoTrueFailure
  {
    .api(GoTrueAPIError(status: status, code: code, message: message))
  }
}
