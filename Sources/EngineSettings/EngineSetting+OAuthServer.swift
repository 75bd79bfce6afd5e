import CommandLineOptions

/// GoTrue's OAuth 2.1 server (`[auth.oauth_server]` in a Supabase project, GoTrue's
/// `OAUTH_SERVER_*`): settings of `authflow serve` only, which alone answers its routes.
extension EngineSetting {
  /// The settings only serve takes (its features the shell's backends have no use for).
  public static let serveOnly = [
    oauthServer, oauthAuthorizationPath, oauthDynamicRegistration, web3Solana, web3Ethereum,
  ]

  /// `--oauth-server on|off`.
  public static let oauthServer = EngineSetting(
    ["--oauth-server"], "on|off",
    ["be an OAuth 2.1 server: /oauth/*, /admin/oauth/* (default off)"],
    environment: "GOTRUE_OAUTH_SERVER_ENABLED",
    config: ConfigKey("auth.oauth_server.enabled", .onOff)
  ) { settings, value throws(OptionValueError) in
    settings.engine.oauthServer.enabled = try onOff(value)
  }

  /// `--oauth-authorization-path PATH`: the site's consent page.
  public static let oauthAuthorizationPath = EngineSetting(
    ["--oauth-authorization-path"], "PATH",
    [
      "the site's consent page /oauth/authorize sends users to, such as",
      "/oauth/consent (default none: the client gets a server_error)",
    ], environment: "GOTRUE_OAUTH_SERVER_AUTHORIZATION_PATH",
    config: ConfigKey("auth.oauth_server.authorization_url_path")
  ) { settings, value in settings.engine.oauthServer.authorizationPath = value }

  /// `--oauth-dynamic-registration on|off`.
  public static let oauthDynamicRegistration = EngineSetting(
    ["--oauth-dynamic-registration"], "on|off",
    ["anyone may register a client at /oauth/clients/register", "(default off)"],
    environment: "GOTRUE_OAUTH_SERVER_ALLOW_DYNAMIC_REGISTRATION",
    config: ConfigKey("auth.oauth_server.allow_dynamic_registration", .onOff)
  ) { settings, value throws(OptionValueError) in
    settings.engine.oauthServer.allowDynamicRegistration = try onOff(value)
  }

}
