import HTTPServer
import LocalPages

/// The presented page: one document whose phone-sized screen the script fills from the event
/// stream, its script, and serve's page's style sheet with the screen's own rules after it.
/// Nothing is fetched from elsewhere (no fonts, scripts or images): it works offline.
enum PresentPage {
  /// The document, carrying `token` (base64url and a dot: safe in an attribute as it is).
  static func document(token: String) -> HTTPResponse {
    HTTPResponse(
      status: 200, headers: [("Content-Type", "text/html; charset=utf-8")],
      body: Array(html(token: token).utf8))
  }

  /// The document's HTML: no inline script or style, which the content policy forbids.
  static func html(token: String) -> String {
    """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="color-scheme" content="light dark">
    <meta name="authflow-page" content="\(token)">
    <title>authflow · the app's screen</title>
    <link rel="stylesheet" href="/app.css">
    <script src="/app.js" defer></script>
    </head>
    <body class="present">
    <a class="skip" href="#screen">Skip to the screen</a>
    <header>
    <span class="brand">authflow</span>
    <span id="backend" class="muted"></span>
    <span id="live" class="live" role="status">Connecting…</span>
    </header>
    <main>
    <section id="screen" class="phone" tabindex="-1" aria-labelledby="title" aria-busy="true">
    <div class="bar">
    <h1 id="title">…</h1>
    <span id="offline" class="offline" hidden>Offline</span>
    </div>
    <div id="message" class="message" hidden></div>
    <p id="note" class="note" hidden></p>
    <div id="body"></div>
    <p id="busy" class="busy" role="status"></p>
    </section>
    <p class="muted caption">The screen of the app as the shell drives it, live; the page only watches.</p>
    </main>
    </body>
    </html>

    """
  }

  /// `app.js`.
  static let script = HTTPResponse(
    status: 200, headers: [("Content-Type", "text/javascript; charset=utf-8")],
    body: Array((PageScriptBase.source + PresentScript.source).utf8))

  /// `app.css`: serve's page's style sheet, then the screen's own.
  static let style = HTTPResponse(
    status: 200, headers: [("Content-Type", "text/css; charset=utf-8")],
    body: Array((PageStyle.css + PresentStyle.css).utf8))
}
