import GoTrue
import HTTPServer
import LocalPages

/// One path the server serves, with what each method does there and the rules checked before
/// it: who may call it and the request limit it spends (GoTrue's route groups and limiter
/// middleware, `api.go`), so handlers hold only their own work.
struct Route: Sendable {
  typealias Handler = @Sendable (RouteContext) async throws(GoTrueFailure) -> HTTPResponse
  /// An answer made on the event loop, touching neither the store nor bcrypt.
  typealias Answerer = @Sendable (RouteContext) -> HTTPResponse

  /// What one method of the route does, and what is checked first.
  struct Action: Sendable {
    /// Who may call it, checked before anything else.
    let access: RouteAccess
    /// The request limit it spends once its caller is let in, if any.
    let limit: RequestLimit?
    /// What it does.
    let work: Work
  }

  /// Where the answer is made.
  enum Work: Sendable {
    /// Off the event loop: the handler may touch the store or hash.
    case handler(Handler)
    /// On the event loop, at once.
    case answer(Answerer)
  }

  /// The path's parts; `{name}` (or `{}`) matches one part, `{name}:verb` one part ending in
  /// `:verb` (Google's custom methods, `projects/{project}:createSessionCookie`), a final `*`
  /// matches the rest.
  let pattern: [Substring]
  let actions: [HTTPMethod: Action]

  /// A route whose methods anyone may call, with no limit of their own.
  init(_ pattern: String, _ handlers: [HTTPMethod: Handler]) {
    self.init(
      pattern,
      actions: handlers.mapValues { Action(access: .anyone, limit: nil, work: .handler($0)) })
  }

  /// A route with each method's rules.
  init(_ pattern: String, actions: [HTTPMethod: Action]) {
    self.pattern = pattern.split(separator: "/")
    self.actions = actions
  }

  /// The route of one of GoTrue's endpoints (of every grant, for `/token`), as the wire
  /// contract names it, with its access, and `limit` spent before `handler` runs.
  init(_ endpoint: GoTrueEndpoint, _ handler: @escaping Handler, limit: RequestLimit? = nil) {
    let action = Action(access: RouteAccess(endpoint.access), limit: limit, work: .handler(handler))
    self.init(
      endpoint.path, actions: HTTPMethod(rawValue: endpoint.method).map { [$0: action] } ?? [:])
  }

  /// A route answered on the event loop, such as `/health` (`GET` only: GoTrue's router
  /// answers `HEAD` with 405).
  static func immediate(_ pattern: String, _ answer: @escaping Answerer) -> Route {
    Route(pattern, actions: [.get: Action(access: .anyone, limit: nil, work: .answer(answer))])
  }

  /// A route whose every method `handler` answers: a GoTrue route group behind a check that
  /// refuses before any routing within it (a feature switched off, `requirePasskeyEnabled`).
  static func whole(_ pattern: String, access: RouteAccess = .anyone, _ handler: @escaping Handler)
    -> Route
  {
    let action = Action(access: access, limit: nil, work: .handler(handler))
    return Route(
      pattern,
      actions: Dictionary(
        uniqueKeysWithValues: HTTPMethod.allCases.filter { $0 != .options }.map { ($0, action) }))
  }

  /// A route only this machine may call (``LocalTrust``); others are told why `what` (the
  /// outbox, the clock) is closed to them.
  static func local(_ pattern: String, _ what: String, _ handlers: [HTTPMethod: Handler]) -> Route {
    Route(
      pattern,
      actions: handlers.mapValues { Action(access: .local(what), limit: nil, work: .handler($0)) })
  }

  private init(pattern: [Substring], actions: [HTTPMethod: Action]) {
    self.pattern = pattern
    self.actions = actions
  }

  /// The methods the route takes, for `Allow`.
  var methods: [HTTPMethod] { HTTPMethod.allCases.filter { actions[$0] != nil } }

  /// Whether the pattern has no `{}` or `*`: such a route is found by its path alone.
  var isStatic: Bool { !pattern.contains { Self.isParameter($0) || $0 == "*" } }

  /// The names of the route's parameters, in order (empty for `{}`).
  var parameterNames: [Substring] {
    pattern.filter(Self.isParameter).map { part in
      let end = part.firstIndex(of: "}") ?? part.endIndex
      return part[part.index(after: part.startIndex)..<end]
    }
  }

  /// Whether a part of a pattern stands for one part of a path (`{name}`, `{name}:verb`).
  static func isParameter(_ part: Substring) -> Bool {
    part.hasPrefix("{") && (part.hasSuffix("}") || verb(of: part) != nil)
  }

  /// The `:verb` a `{name}:verb` part ends in.
  private static func verb(of part: Substring) -> Substring? {
    guard part.hasPrefix("{"), let close = part.firstIndex(of: "}") else { return nil }
    let rest = part[part.index(after: close)...]
    return rest.hasPrefix(":") && rest.count > 1 ? rest : nil
  }

  /// The parts `{}` matched, or `nil` when `parts` (a path's) are not this route's.
  func match(_ parts: [Substring]) -> [String]? {
    var parameters: [String] = []
    for (index, expected) in pattern.enumerated() {
      if expected == "*" { return parameters }
      guard index < parts.count else { return nil }
      if let verb = Self.verb(of: expected) {
        let part = parts[index]
        guard part.hasSuffix(verb), part.count > verb.count else { return nil }
        parameters.append(String(part.dropLast(verb.count)))
      } else if Self.isParameter(expected) {
        parameters.append(String(parts[index]))
      } else if expected != parts[index] {
        return nil
      }
    }
    return parts.count == pattern.count ? parameters : nil
  }

  /// `routes` with those of one path made one, their actions together, in first-seen order.
  static func merged(_ routes: [Route]) -> [Route] {
    var merged: [Route] = []
    for route in routes {
      if let index = merged.firstIndex(where: { $0.pattern == route.pattern }) {
        merged[index] = Route(
          pattern: route.pattern,
          actions: merged[index].actions.merging(route.actions) { first, _ in first })
      } else {
        merged.append(route)
      }
    }
    return merged
  }
}

/// Who may call a route, checked before its handler.
enum RouteAccess: Equatable, Sendable {
  /// Anyone with the API key.
  case anyone
  /// A signed-in user: a bearer token must be there (the engine checks whose it is).
  case user
  /// An admin: the bearer must be a `service_role` token.
  case admin
  /// This machine only (``LocalTrust``): what the named surface is.
  case local(String)

  /// The access GoTrue's contract gives an endpoint.
  init(_ access: GoTrueEndpoint.Access) {
    switch access {
    case .anyone: self = .anyone
    case .user: self = .user
    case .admin: self = .admin
    }
  }
}

/// Routes found by path: a dictionary for the paths without parameters, then the patterned
/// ones in order.
struct RouteTable: Sendable {
  private let exact: [String: Route]
  private let patterned: [Route]

  /// The table of `routes`, those of one path made one.
  init(_ routes: [Route]) {
    let merged = Route.merged(routes)
    var exact: [String: Route] = [:]
    for route in merged where route.isStatic {
      exact["/" + route.pattern.joined(separator: "/")] = route
    }
    self.exact = exact
    patterned = merged.filter { !$0.isStatic }
  }

  /// The route of `path` and the parts its `{…}`s matched, or `nil`.
  func match(_ path: String) -> (route: Route, parameters: [String])? {
    let parts = GoRouting.parts(of: path)
    if let route = exact["/" + parts.joined(separator: "/")] { return (route, []) }
    for route in patterned {
      if let parameters = route.match(parts) { return (route, parameters) }
    }
    return nil
  }
}
