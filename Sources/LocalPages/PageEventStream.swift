import HTTPServer

/// One answer of a page's event stream (`text/event-stream`), as serve's page and the shell's
/// presented screen send it: the server's replies are whole values, so each answer is a short
/// stream that ends, and the browser's `EventSource` asks again after `retry` milliseconds
/// with the `Last-Event-ID` it was given (`id`), so nothing between two answers is missed.
public enum PageEventStream {
  /// The answer carrying `events` (each a name and one line of data) under the last id `id`.
  public static func answer(id: String, retry: Int, events: [(name: String, data: String)])
    -> HTTPResponse
  {
    var text = "retry: \(retry)\nid: \(id)\n"
    for event in events { text += "event: \(event.name)\ndata: \(event.data)\n\n" }
    return HTTPResponse(
      status: 200, headers: [("Content-Type", "text/event-stream; charset=utf-8")],
      body: Array(text.utf8))
  }
}
