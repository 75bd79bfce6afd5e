import HTTPServer

/// The HTML of each view: one document with the view's markup, the page's token in a `meta`
/// element, and the one script and style sheet (no inline script or style, which the content
/// policy forbids).
enum PageDocument {
  /// The view's document for `context`'s request, with a new token.
  static func answer(_ view: PageView, _ context: RouteContext, _ page: ServePage)
    -> HTTPResponse
  {
    let base = context.request.path.hasPrefix("/auth/v1/") ? "/auth/v1/_/" : "/_/"
    let html = document(view, base: base, token: page.key.issue())
    return HTTPResponse(
      status: 200, headers: [("Content-Type", "text/html; charset=utf-8")],
      body: Array(html.utf8))
  }

  /// The document of `view` under `base` (`/_/`), carrying `token` (base64url and a dot: safe
  /// in an attribute as it is).
  static func document(_ view: PageView, base: String, token: String) -> String {
    let links = PageView.allCases.map { other in
      let current = other == view ? #" aria-current="page""# : ""
      return #"<a href="\#(base)\#(other.relativePath)"\#(current)>\#(other.title)</a>"#
    }.joined()
    return """
      <!doctype html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta name="color-scheme" content="light dark">
      <meta name="authflow-page" content="\(token)">
      <meta name="authflow-base" content="\(base)">
      <title>\(view.title) · authflow serve</title>
      <link rel="stylesheet" href="\(base)app.css">
      <script src="\(base)app.js" defer></script>
      </head>
      <body data-view="\(view.rawValue)">
      <a class="skip" href="#main">Skip to content</a>
      <header>
      <span class="brand">authflow serve</span>
      <nav aria-label="Sections">\(links)</nav>
      <span id="live" class="live" role="status">Connecting…</span>
      </header>
      <main id="main" tabindex="-1">
      <h1>\(view.title)</h1>
      \(view.body)
      </main>
      </body>
      </html>

      """
  }
}
