import FirebaseEmulator
import GoTrue
import GoTrueEngine
import HTTPServer
import LocalPages

/// What `authflow serve` answers: GoTrue's REST API at the root and under `/auth/v1/` (the path
/// a Supabase project URL adds), the outbox in Mailpit's message API under `/api/v1/`, and
/// with a Firebase project the Firebase Auth emulator's REST API (`FirebaseRoutes`).
///
/// Cheap answers (`/health`, `/settings`, CORS preflights, unknown paths) come straight from
/// the event loop; everything that touches the store or bcrypt runs off it.
public struct AuthResponder: HTTPResponder {
  let engine: EmbeddedGoTrue
  let version: String
  let firebase: FirebaseEmulation?
  /// Who may use the privileged routes.
  let trust: LocalTrust
  /// GoTrue's request limits, per client.
  let limiter: RequestLimiter
  /// The engine's clock as the clock route shows and moves it.
  let clock: ServerClock
  /// Fetches SSO providers' metadata from their `metadata_url`.
  let metadataFetcher: SAMLMetadataFetcher
  /// Touched after each request that may have changed the store, for serve's page.
  let changes = ChangeSignal()
  private let routes: RouteTable

  /// A responder for `engine`; `version` is what `/health` reports; `firebase` adds the
  /// Firebase Auth emulator's surface for its project; `externalURL`, when the server was
  /// given one, names it as well as loopback does for the privileged routes; `limiter` limits
  /// requests per client (by default as GoTrue does with no limiting header: not at all);
  /// `clock` says whether requests may move the engine's clock (by default not);
  /// `metadataFetcher` fetches SAML metadata (by default through the `authflow-http` helper).
  init(
    engine: EmbeddedGoTrue, version: String, firebase: FirebaseEmulation? = nil,
    externalURL: String? = nil, limiter: RequestLimiter = RequestLimiter(RequestLimits()),
    clock: ServerClock = .fixed, metadataFetcher: SAMLMetadataFetcher = .throughHelper()
  ) {
    self.engine = engine
    self.metadataFetcher = metadataFetcher
    self.version = version
    self.firebase = firebase
    self.limiter = limiter
    self.clock = clock
    trust = LocalTrust(alsoNaming: externalURL.map { [$0] } ?? [])
    let page = ServePage(
      engine: engine, firebase: firebase, changes: changes,
      settings: PageSettings.of(
        engine: engine, version: version, firebaseProject: firebase?.projectID,
        externalURL: externalURL, clockMoves: clock.movable != nil))
    routes = RouteTable(
      OAuthServerRoutes.routes(engine.configuration) + GoTrueRoutes.all + MailboxRoutes.all
        + ClockRoutes.all
        + (firebase.map(FirebaseRoutes.all) ?? []) + PageRoutes.all(page))
  }

  /// Routes a request once, on the event loop: what costs nothing (`/health`, `/settings`,
  /// CORS preflights, unknown paths and methods) is answered there; the rest becomes the work
  /// of its route's handler, with the path's parameters already read.
  public func route(_ request: HTTPRequest) -> HTTPRoute {
    let path = routePath(GoRouting.path(of: request))
    let origin = crossOrigin(request, path: path)
    let found = routes.match(path)
    let action = found?.route.actions[request.method]
    if firebase != nil, FirebaseRoutes.serves(path) {
      if request.method == .options {
        return .answer(FirebaseCORS.preflight(request, origin: origin))
      }
      if request.method == .get, path == "/" {
        return .answer(FirebaseCORS.decorate(FirebaseAnswer.ready, for: request, origin: origin))
      }
      guard let found, let action else {
        return .answer(
          FirebaseCORS.decorate(FirebaseAnswer.error(.notFound), for: request, origin: origin))
      }
      return perform(action, request, found.parameters, names: found.route.parameterNames) {
        FirebaseCORS.decorate($0, for: request, origin: origin)
      }
    }
    if request.method == .options { return .answer(CORS.preflight(request, origin: origin)) }
    let decorate: @Sendable (HTTPResponse) -> HTTPResponse = {
      CORS.decorate($0, for: request, origin: origin)
    }
    guard let found, let action else {
      let answer = found.map { Answer.methodNotAllowed(allowing: $0.route.methods) }
      return unrouted(request, path: path, answer: answer ?? Answer.notFound, decorate: decorate)
    }
    return perform(action, request, found.parameters, names: found.route.parameterNames, decorate)
  }

  /// Ends the event streams the page holds open, so that stopping waits for none of them.
  public func draining() {
    changes.touch()
  }

  /// chi's 404 or 405 for a path or method no route serves; within a group that checks its
  /// caller first (``GuardedGroup``), only after that check.
  private func unrouted(
    _ request: HTTPRequest, path: String, answer: HTTPResponse,
    decorate: @escaping @Sendable (HTTPResponse) -> HTTPResponse
  ) -> HTTPRoute {
    guard let access = GuardedGroup.access(of: path) else { return .answer(decorate(answer)) }
    let check = Route.Action(
      access: access, limit: nil,
      work: .handler { context throws(GoTrueFailure) in
        if access == .user { _ = try await context.engine.user(accessToken: context.accessToken) }
        return answer
      })
    return perform(check, request, [], names: [], decorate)
  }

  /// What `action` answers `request`: at once on the event loop, or as work off it, its rules
  /// checked first (who may call it, then its limit) and a failure answered in GoTrue's shape;
  /// the answer decorated for the request's origin.
  private func perform(
    _ action: Route.Action, _ request: HTTPRequest, _ parameters: [String], names: [Substring],
    _ decorate: @escaping @Sendable (HTTPResponse) -> HTTPResponse
  ) -> HTTPRoute {
    let context = RouteContext(
      request: request, parameters: parameters, names: names, engine: engine, trust: trust,
      limiter: limiter, clock: clock, version: version, metadataFetcher: metadataFetcher)
    switch action.work {
    case .answer(let answer):
      return .answer(decorate(answer(context)))
    case .handler(let handler):
      if case .local(let what) = action.access, let refusal = trust.refusal(request) {
        return .answer(decorate(Answer.text(403, refusal.reason(what))))
      }
      let changes = request.method == .get || request.method == .head ? nil : changes
      return .work {
        defer { changes?.touch() }
        var context = context
        do throws(GoTrueFailure) {
          switch action.access {
          case .anyone, .local: break
          case .user: context.accessToken = try context.bearer()
          case .admin: try context.requireAdmin()
          }
          if let limit = action.limit { try context.limit(limit) }
          return decorate(try await handler(context))
        } catch {
          return decorate(Answer.failure(error, for: request))
        }
      }
    }
  }

  /// Whether `path` is a privileged surface's: the outbox, the emulator's own routes, the
  /// clock.
  static func isPrivileged(_ path: String) -> Bool {
    path.hasPrefix("/api/v1/") || path.hasPrefix("/emulator/v1/") || path.hasPrefix("/authflow/")
  }

  /// How a cross-origin request to `path` is answered: a privileged route grants nothing to a
  /// page of another site.
  private func crossOrigin(_ request: HTTPRequest, path: String) -> CrossOrigin {
    // serve's page grants no origin anything, not even another on this machine.
    if path.hasPrefix("/_/") || path == "/_" { return .refused }
    return switch trust.origin(of: request) {
    case .none: .none
    case .local: .local
    case .foreign: Self.isPrivileged(path) ? .refused : .foreign
    }
  }

  /// The path routes are matched against: GoTrue's (``apiPath(_:)``), and with Firebase on,
  /// a legacy v3 path as the v1 path it stands for.
  func routePath(_ path: String) -> String {
    let path = Self.apiPath(path)
    return firebase == nil ? path : FirebaseRoutes.rewritten(path)
  }

  /// The path GoTrue would see: without the `/auth/v1` a Supabase project URL puts in front.
  static func apiPath(_ path: String) -> String {
    let prefix = "/auth/v1"
    guard path.hasPrefix(prefix) else { return path }
    let rest = path.dropFirst(prefix.count)
    return rest.isEmpty ? "/" : rest.hasPrefix("/") ? String(rest) : path
  }

}

/// What a handler gets: the request, the path's `{…}` parts, the engine.
struct RouteContext: Sendable {
  let request: HTTPRequest
  /// The parts the route's `{…}`s matched, in order.
  let parameters: [String]
  /// The names of the route's `{name}`s, in order.
  var names: [Substring] = []
  let engine: EmbeddedGoTrue
  /// Who may use the privileged routes.
  let trust: LocalTrust
  /// GoTrue's request limits (``limit(_:)``).
  let limiter: RequestLimiter
  /// The engine's clock as the clock route moves it.
  let clock: ServerClock
  /// What `/health` reports.
  let version: String
  /// Fetches SSO providers' metadata.
  let metadataFetcher: SAMLMetadataFetcher
  /// The bearer token of a user's route, there once its rules are checked (``RouteAccess``).
  var accessToken = ""

  /// The part of the path the route's `{name}` matched (`""` if the route has none of that
  /// name: the route table says which it has).
  func parameter(_ name: String) -> String {
    guard let index = names.firstIndex(where: { $0 == name }), index < parameters.count else {
      return ""
    }
    return parameters[index]
  }

  /// The request's JSON body, which must be there.
  func body() throws(GoTrueFailure) -> RequestBody { try RequestBody(request.body) }

  /// The request's JSON body, or nothing.
  func optionalBody() throws(GoTrueFailure) -> RequestBody { try .optional(request.body) }

  /// The bearer token of `Authorization`, or 401 `no_authorization`.
  func bearer() throws(GoTrueFailure) -> String {
    guard let header = request.header("Authorization") else { throw Self.noAuthorization }
    let parts = header.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "bearer", !parts[1].isEmpty else {
      throw Self.noAuthorization
    }
    return String(parts[1]).trimmingWhitespace
  }

  /// Checks the bearer token is an admin's.
  func requireAdmin() throws(GoTrueFailure) {
    try engine.authorizeAdmin(try bearer())
  }

  /// Where the request's links should lead, as GoTrue's `GetReferrer` finds it: a
  /// `redirect_to` header, else the query's `redirect_to` (where GoTrue's clients put it), when
  /// the engine allows it (``EmbeddedGoTrue/isRedirectAllowed(_:)``); else the `Referer` when
  /// allowed; `nil` for the site URL.
  var redirectTo: String? {
    let header = request.header("redirect_to").flatMap { $0.isEmpty ? nil : $0 }
    if let asked = header ?? request.queryValue("redirect_to"), engine.isRedirectAllowed(asked) {
      return asked
    }
    if let referer = request.header("Referer"), engine.isRedirectAllowed(referer) {
      return referer
    }
    return nil
  }

  private static let noAuthorization = GoTrueFailure.api(
    GoTrueAPIError(
      status: 401, code: .noAuthorization, message: "This endpoint requires a valid Bearer token"))
}

extension String {
  fileprivate var trimmingWhitespace: String {
    let bytes = utf8
    let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    guard let first = bytes.firstIndex(where: { !isBlank($0) }),
      let last = bytes.lastIndex(where: { !isBlank($0) })
    else { return "" }
    return String(decoding: bytes[first...last], as: UTF8.self)
  }
}
