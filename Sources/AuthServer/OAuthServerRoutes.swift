import AccountStore
import GoTrue
import GoTrueEngine
import HTTPServer

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// GoTrue's OAuth 2.1 server (`api.go`: the `/oauth` and `/admin/oauth` groups,
/// `/user/oauth/grants`, `/.well-known/oauth-authorization-server`). The routes are those it
/// serves switched on; switched off (``off``), each group answers 404 `feature_disabled` to
/// every method and path within it, after the check its group makes first (an admin's token,
/// a signed-in user's).
enum OAuthServerRoutes {
  static let all: [Route] =
    clients + flow + [
      Route("/.well-known/oauth-authorization-server", [.get: metadata])
    ]

  /// The groups as a GoTrue with the server off answers them, ahead of ``all`` in the table:
  /// each path of theirs, and any other within them, to every method.
  static let off: [Route] =
    (clients + flow).map { "/" + $0.pattern.joined(separator: "/") }
    .map(whole) + ["/oauth/*", "/admin/oauth/*", "/user/oauth/grants/*"].map(whole)

  /// A path of the groups answered as off, after its group's check.
  private static func whole(_ path: String) -> Route {
    switch GuardedGroup.access(of: path) {
    case .admin?: return Route.whole(path, access: .admin, disabled)
    case .user?:
      return Route.whole(path, access: .user) { context throws(GoTrueFailure) in
        _ = try await context.engine.user(accessToken: context.accessToken)
        return try await disabled(context)
      }
    default: return Route.whole(path, disabled)
    }
  }

  /// The routes as `configuration` has the server.
  static func routes(_ configuration: EngineConfiguration) -> [Route] {
    configuration.oauthServer.enabled ? [] : off
  }

  /// GoTrue's `requireOAuthServerEnabled`.
  @Sendable static func disabled(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    throw .api(
      GoTrueAPIError(status: 404, code: .featureDisabled, message: "OAuth server is disabled"))
  }

  /// `GET /.well-known/oauth-authorization-server`: the OIDC discovery document (RFC 8414's
  /// metadata is what it extends), only with the server on.
  @Sendable static func metadata(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    let configuration = context.engine.configuration
    guard configuration.oauthServer.enabled else { return try await disabled(context) }
    return Answer.json(
      DiscoveryRoutes.metadata(
        configuration, registration: DiscoveryRoutes.registers(configuration)),
      headers: [KeySetRoutes.caching])
  }

  static func admin(_ handler: @escaping Route.Handler) -> Route.Action {
    Route.Action(access: .admin, limit: nil, work: .handler(handler))
  }

  static func user(_ handler: @escaping Route.Handler) -> Route.Action {
    Route.Action(access: .user, limit: nil, work: .handler(handler))
  }

  /// `millis` as GoTrue writes a `time.Time`.
  static func time(_ millis: Int64) -> JSONValue {
    .string(GoTrueCoding.timestamp(Date(millis: millis)))
  }
}
