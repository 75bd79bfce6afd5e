/// GoTrue as an OAuth 2.1 server (`conf.OAuthServerConfiguration`, the `OAUTH_SERVER_*`
/// variables, `[auth.oauth_server]` in a Supabase project): off by default.
public struct OAuthServerSettings: Equatable, Sendable {
  /// Whether the server is on (`OAUTH_SERVER_ENABLED`); off, its routes answer 404
  /// `feature_disabled`.
  public var enabled = false
  /// Where on the site `GET /oauth/authorize` sends the user to consent
  /// (`OAUTH_SERVER_AUTHORIZATION_PATH`, the config's `authorization_url_path`); none by
  /// default, and then the client is sent back a `server_error`.
  public var authorizationPath = ""
  /// Whether anyone may register a client at `POST /oauth/clients/register`
  /// (`OAUTH_SERVER_ALLOW_DYNAMIC_REGISTRATION`).
  public var allowDynamicRegistration = false
  /// Seconds an authorization waits for consent and exchange (`OAUTH_SERVER_AUTHORIZATION_TTL`).
  public var authorizationLifetime: Double = 600
  /// The scope of a request that names none (`OAUTH_SERVER_DEFAULT_SCOPE`).
  public var defaultScope = "email"

  /// GoTrue's defaults.
  public init() {}
}
