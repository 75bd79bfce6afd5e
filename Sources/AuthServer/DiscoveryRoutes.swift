import GoTrue
import GoTrueEngine
import HTTPServer

/// `GET /.well-known/openid-configuration` (GoTrue's `api/jwks.go` `WellKnownOpenID`): OIDC
/// discovery, served whether or not the OAuth server is on, every endpoint named under the
/// issuer (`JWT_ISSUER`, its trailing slashes dropped; relative when there is none, as in
/// GoTrue).
enum DiscoveryRoutes {
  static let all: [Route] = [
    Route("/.well-known/openid-configuration", [.get: openIDConfiguration])
  ]

  /// The scopes GoTrue's OAuth server knows (`models.SupportedOAuthScopes`).
  static let scopes = ["openid", "profile", "email", "phone", "offline_access"]

  @Sendable static func openIDConfiguration(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    Answer.json(
      metadata(
        context.engine.configuration, registration: registers(context.engine.configuration)),
      headers: [KeySetRoutes.caching])
  }

  /// Whether the OAuth server takes dynamic registrations, when the metadata names its
  /// endpoint.
  static func registers(_ configuration: EngineConfiguration) -> Bool {
    configuration.oauthServer.enabled && configuration.oauthServer.allowDynamicRegistration
  }

  /// The metadata; `registration` adds the dynamic registration
  /// endpoint (GoTrue names it when its OAuth server takes dynamic registrations).
  static func metadata(_ configuration: EngineConfiguration, registration: Bool) -> JSONValue {
    let issuer = configuration.issuer ?? ""
    var base = Substring(issuer)
    while base.hasSuffix("/") { base = base.dropLast() }
    let strings: ([String]) -> JSONValue = { .array($0.map(JSONValue.string)) }
    var members: [(String, JSONValue)] = [
      ("issuer", .string(issuer)),
      ("authorization_endpoint", .string(base + "/oauth/authorize")),
      ("token_endpoint", .string(base + "/oauth/token")),
      ("jwks_uri", .string(base + "/.well-known/jwks.json")),
      ("userinfo_endpoint", .string(base + "/oauth/userinfo")),
    ]
    if registration {
      members.append(("registration_endpoint", .string(base + "/oauth/clients/register")))
    }
    members += [
      ("scopes_supported", strings(scopes)),
      ("response_types_supported", strings(["code"])),
      ("response_modes_supported", strings(["query"])),
      ("grant_types_supported", strings(["authorization_code", "refresh_token"])),
      ("subject_types_supported", strings(["public"])),
      ("id_token_signing_alg_values_supported", strings(["RS256", "HS256", "ES256"])),
      (
        "token_endpoint_auth_methods_supported",
        strings(["client_secret_basic", "client_secret_post", "none"])
      ),
      (
        "claims_supported",
        strings([
          "sub", "aud", "iss", "exp", "iat", "auth_time", "nonce", "email", "email_verified",
          "phone_number", "phone_number_verified", "name", "picture", "preferred_username",
          "updated_at",
        ])
      ),
      ("code_challenge_methods_supported", strings(["S256", "plain"])),
    ]
    return .object(Dictionary(uniqueKeysWithValues: members))
  }
}
