import GoTrue
import GoTrueEngine
import HTTPServer

/// `GET /.well-known/jwks.json` (GoTrue's `api/jwks.go` `WellKnownJwks`): the public keys that
/// check the server's tokens, so that a client or another service can verify an access token
/// without asking the server (supabase-js's and supabase-py's `getClaims`).
enum KeySetRoutes {
  static let all: [Route] = [Route("/.well-known/jwks.json", [.get: keySet])]

  /// GoTrue's caching: the keys change only when the server restarts with others.
  static let caching = ("Cache-Control", "public, max-age=600")

  /// `{"keys":[…]}`: each asymmetric key's public JWK (its public members, `use` `sig`,
  /// `key_ops` `["verify"]`); never a shared secret, so a server signing with its secret
  /// (HS256) lists none. No token needed, as in GoTrue.
  @Sendable static func keySet(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    Answer.json(
      JSONValue.object(["keys": .array(context.engine.tokenKeys.published)]), headers: [caching])
  }
}
