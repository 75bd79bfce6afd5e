import HTTPServer
import LocalPages

/// The presented page's server: `GET /` (the document), `/app.js`, `/app.css` and `/events`,
/// nothing else, and nothing to change: the page only watches. Every request is held to
/// serve's page's rules first: this machine only, addressed by a loopback name
/// (``LocalTrust``), no other page's `Origin`, a browser's `Sec-Fetch-Site` from the page
/// itself, and the page's token on the event stream (``PageGuard``); every answer carries the
/// page's headers and content policy.
struct PresentResponder: HTTPResponder {
  /// The screen the event stream hands out.
  let board: PresentBoard
  /// Binds the event stream to a page this process served.
  let key: PageKey
  /// Loopback only: the presenter's page is for this machine's browser.
  let trust = LocalTrust()

  /// What the page is, in the words of a refusal.
  static let surface = "the presented screen"

  func route(_ request: HTTPRequest) -> HTTPRoute {
    if let refusal = trust.refusal(request) {
      return .answer(Self.refused(403, refusal.reason(Self.surface)))
    }
    let kind: PageGuard.Kind
    let answer: HTTPResponse?
    switch request.path {
    case "/": (kind, answer) = (.document, PresentPage.document(token: key.issue()))
    case "/app.js": (kind, answer) = (.asset, PresentPage.script)
    case "/app.css": (kind, answer) = (.asset, PresentPage.style)
    case "/events": (kind, answer) = (.events, nil)
    default: return .answer(Self.refused(404, "\(Self.surface) has no page here"))
    }
    guard request.method == .get || request.method == .head else {
      var refused = Self.refused(405, "\(Self.surface) only answers GET")
      refused.headers.append(("Allow", "GET, HEAD"))
      return .answer(refused)
    }
    if let refusal = PageGuard.refusal(request, kind: kind, key: key) { return .answer(refusal) }
    if let answer { return .answer(PageGuard.decorated(answer)) }
    return .work { [board] in
      PageGuard.decorated(await PresentEvents.answer(request, board: board))
    }
  }

  func refusal(_ refusal: ServerRefusal, path: String?) -> HTTPResponse {
    Self.refused(refusal.status, refusal.reason)
  }

  /// A JSON refusal `{"msg": …}` with the page's headers; `reason` is fixed text.
  private static func refused(_ status: Int, _ reason: String) -> HTTPResponse {
    PageGuard.decorated(
      HTTPResponse(
        status: status, headers: [("Content-Type", "application/json")],
        body: Array(#"{"msg":"\#(reason)"}"#.utf8)))
  }
}
