import HTTPServer
import LocalPages

/// The page's script and style sheet, built into the binary.
enum PageAsset {
  /// `app.js`: every view's script.
  static let script = HTTPResponse(
    status: 200, headers: [("Content-Type", "text/javascript; charset=utf-8")],
    body: Array(
      (PageScriptBase.source + PageScript.common + PageScript.inbox + PageScript.users
        + PageScript.clock).utf8))

  /// `app.css`: the style sheet, light and dark.
  static let style = HTTPResponse(
    status: 200, headers: [("Content-Type", "text/css; charset=utf-8")],
    body: Array(PageStyle.css.utf8))
}
