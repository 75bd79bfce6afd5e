import GoTrue
import HTTPServer
import LocalPages

/// serve's page at `/_/` (and `/auth/v1/_/`): the inbox, the users, the clock and the
/// settings, their script and style sheet, the event stream, and the page's own JSON reads and
/// actions under `/_/api/`. Every route is the outbox's kind (``LocalTrust``) and then held to
/// the page's own rules (``PageGuard``); every answer carries ``PageGuard/headers``.
enum PageRoutes {
  /// What the page is, in the words of a refusal.
  static let surface = "the page"

  /// The page's routes over `page`.
  static func all(_ page: ServePage) -> [Route] {
    func route(_ pattern: String, _ handlers: [HTTPMethod: Guarded]) -> Route {
      guarded(pattern, handlers, key: page.key)
    }
    let documents = PageView.allCases.map { view in
      route(view.path, [.get: (.document, { context in PageDocument.answer(view, context, page) })])
    }
    return documents + [
      route("/_/app.js", [.get: (.asset, { _ in PageAsset.script })]),
      route("/_/app.css", [.get: (.asset, { _ in PageAsset.style })]),
      route("/_/events", [.get: (.events, { context in await PageEvents.answer(context, page) })]),
      route(
        "/_/api/messages",
        [.get: (.data, { _ in PageInbox.list(page) })]),
      route(
        "/_/api/messages/delete",
        [.post: (.data, { context in PageInbox.delete(context, page) })]),
      route(
        "/_/api/users",
        [
          .get: (.data, { context throws(GoTrueFailure) in try PageUsers.list(context, page) }),
          .post: (
            .data, { context throws(GoTrueFailure) in try await PageUsers.create(context, page) }
          ),
        ]),
      route(
        "/_/api/users/{id}/{action}",
        [
          .post: (
            .data, { context throws(GoTrueFailure) in try await PageUsers.act(context, page) }
          )
        ]
      ),
      route(
        "/_/api/clock",
        [
          .get: (.data, { context throws(GoTrueFailure) in try await ClockRoutes.read(context) }),
          .post: (.data, { context throws(GoTrueFailure) in try await ClockRoutes.move(context) }),
        ]),
      route("/_/api/settings", [.get: (.data, { _ in PageSettings.answer(page) })]),
    ]
  }

  private typealias Guarded = (PageGuard.Kind, Route.Handler)

  /// A route of the page: the outbox's trust first (``RouteAccess/local(_:)``), then the
  /// page's rules for each method's kind; every answer with the page's headers.
  private static func guarded(_ pattern: String, _ handlers: [HTTPMethod: Guarded], key: PageKey)
    -> Route
  {
    .local(
      pattern, surface,
      handlers.mapValues { kind, handler in
        { @Sendable context async throws(GoTrueFailure) -> HTTPResponse in
          if let refusal = PageGuard.refusal(context.request, kind: kind, key: key) {
            return refusal
          }
          do throws(GoTrueFailure) {
            return PageGuard.decorated(try await handler(context))
          } catch {
            return PageGuard.decorated(Answer.failure(error, for: context.request))
          }
        }
      })
  }
}
