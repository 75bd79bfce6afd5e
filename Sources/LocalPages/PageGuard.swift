import HTTPServer

/// The page's rules on top of the outbox's (``LocalTrust``, which its routes check first: a
/// loopback peer, a `Host` naming this server, no foreign `Origin`): an `Origin`, when sent,
/// must be the page's own (another port on loopback is another site's app); a browser's
/// `Sec-Fetch-Site` must say the request came from the page itself (only a navigation to a
/// page may come from elsewhere); and every read and action must carry the page's token
/// (``PageKey``).
public enum PageGuard {
  /// What a request asks for, which decides what it must carry.
  public enum Kind: Equatable, Sendable {
    /// A page: opened from anywhere, carrying nothing.
    case document
    /// The script or the style sheet: from the page.
    case asset
    /// The data and actions: from the page, with its token in `X-Authflow-Page`.
    case data
    /// The event stream: from the page, with its token in `?token=` (`EventSource` sends no
    /// header of its own).
    case events
  }

  /// The answer refusing `request`, or `nil` when it may go on.
  public static func refusal(_ request: HTTPRequest, kind: Kind, key: PageKey) -> HTTPResponse? {
    if let origin = request.header("Origin"), !isOwn(origin: origin, request: request) {
      return refused("no other page, even one on this machine, may use this page")
    }
    if let site = request.header("Sec-Fetch-Site")?.lowercased(), site != "same-origin",
      site != "none",
      kind != .document || request.header("Sec-Fetch-Mode")?.lowercased() != "navigate"
    {
      return refused("only the page itself may ask for this")
    }
    switch kind {
    case .document, .asset: return nil
    case .data:
      return key.accepts(request.header("X-Authflow-Page"))
        ? nil : refused("the request carries no token of a page this server served; reload")
    case .events:
      return key.accepts(request.queryValue("token"))
        ? nil : refused("the request carries no token of a page this server served; reload")
    }
  }

  /// Whether `origin` is the page's own: this server as the request's `Host` names it.
  private static func isOwn(origin: String, request: HTTPRequest) -> Bool {
    guard let host = request.header("Host")?.lowercased() else { return false }
    let origin = origin.lowercased()
    return origin == "http://" + host || origin == "https://" + host
  }

  private static func refused(_ reason: String) -> HTTPResponse {
    decorated(
      HTTPResponse(
        status: 403, headers: [("Content-Type", "application/json")],
        body: Array(#"{"msg":"the page refused this request: \#(reason)"}"#.utf8)))
  }

  /// What every answer of the page carries: no sniffing, no referrer, no caching, no framing
  /// and no use by another origin's documents.
  public static let headers: [(name: String, value: String)] = [
    ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"),
    ("Cache-Control", "no-store"), ("X-Frame-Options", "DENY"),
    ("Cross-Origin-Resource-Policy", "same-origin"), ("Cross-Origin-Opener-Policy", "same-origin"),
  ]

  /// The policy of the pages: their own script and style sheet only, requests to this server
  /// only, never in a frame.
  public static let contentSecurityPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    + "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

  /// `response` with ``headers``, and the content policy (which also covers a JSON answer
  /// opened as a document).
  public static func decorated(_ response: HTTPResponse) -> HTTPResponse {
    var response = response
    response.headers += headers + [("Content-Security-Policy", contentSecurityPolicy)]
    return response
  }
}
