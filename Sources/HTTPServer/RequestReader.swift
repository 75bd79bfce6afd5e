import CEvent
import Glibc

/// Copies a request out of evhttp into Swift values (loop thread only).
enum RequestReader {
  /// The method, or nil for one outside ``HTTPMethod`` (evhttp is set to allow only those).
  static func method(of req: OpaquePointer) -> HTTPMethod? {
    HTTPMethod(evhttp_request_get_command(req))
  }

  /// The percent-decoded path; `/` when the target has none (`GET http://host HTTP/1.1`).
  static func path(of req: OpaquePointer) -> String {
    guard let raw = rawPath(of: req) else { return "/" }
    return PercentDecoding.path(bytes(raw))
  }

  /// The path as the target spelt it, or nil when the target has none.
  private static func rawPath(of req: OpaquePointer) -> UnsafePointer<CChar>? {
    guard let uri = evhttp_request_get_evhttp_uri(req), let raw = evhttp_uri_get_path(uri),
      raw.pointee != 0
    else { return nil }
    return raw
  }

  /// The whole request: method, path, query, headers, body.
  static func request(_ req: OpaquePointer, method: HTTPMethod, peer: String) -> HTTPRequest {
    var query: [(name: String, value: String)] = []
    if let uri = evhttp_request_get_evhttp_uri(req), let raw = evhttp_uri_get_query(uri) {
      query = PercentDecoding.query(String(cString: raw))
    }
    let raw = rawPath(of: req)
    return HTTPRequest(
      method: method, path: raw.map { PercentDecoding.path(bytes($0)) } ?? "/",
      rawPath: raw.map { String(cString: $0) } ?? "/", query: query,
      headers: evhttp_request_get_input_headers(req).map(pairs) ?? [], body: body(of: req),
      peer: peer)
  }

  private static func body(of req: OpaquePointer) -> [UInt8] {
    guard let input = evhttp_request_get_input_buffer(req) else { return [] }
    let count = evbuffer_get_length(input)
    guard count > 0 else { return [] }
    return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      initialized = max(0, evbuffer_copyout(input, buffer.baseAddress, count))
    }
  }

  /// The entries of a header list in order (TAILQ_FOREACH through the shim).
  private static func pairs(
    _ list: UnsafeMutablePointer<evkeyvalq>
  ) -> [(name: String, value: String)] {
    var result: [(name: String, value: String)] = []
    var item = cevent_header_first(list)
    while let entry = item {
      result.append((String(cString: entry.pointee.key), String(cString: entry.pointee.value)))
      item = cevent_header_next(entry)
    }
    return result
  }

  private static func bytes(_ text: UnsafePointer<CChar>) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(start: text, count: strlen(text))
  }
}
