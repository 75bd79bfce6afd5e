/// One request, copied out of libevent on the event-loop thread.
///
/// It holds plain values only, so it can travel to a responder's Task on another thread; the
/// libevent request it came from stays on the loop thread.
public struct HTTPRequest: Sendable {
  /// The request method.
  public var method: HTTPMethod
  /// The percent-decoded path without the query, such as `/auth/v1/user`.
  ///
  /// `%2F` decodes to `/` like any other escape, so a path segment cannot carry a slash.
  public var path: String
  /// The path as the request target spelt it, escapes and all (what Go's `URL.RawPath` keeps
  /// when it differs from the decoded path's own escaping).
  public var rawPath: String
  /// The query's pairs, decoded and in their order: `+` is a space, and a part without `=`
  /// (`?a`) is `("a", "")`.
  public var query: [(name: String, value: String)]
  /// The header fields in the order they arrived, names as the client spelled them.
  public var headers: [(name: String, value: String)]
  /// The body, up to the configured `maxBodyBytes`.
  public var body: [UInt8]
  /// The client's address and port: `127.0.0.1:54321` or `[::1]:54321`.
  public var peer: String

  /// A request as the server would build it; for testing responders without a socket.
  public init(
    method: HTTPMethod, path: String, rawPath: String? = nil,
    query: [(name: String, value: String)] = [], headers: [(name: String, value: String)] = [],
    body: [UInt8] = [], peer: String = ""
  ) {
    self.method = method
    self.path = path
    self.rawPath = rawPath ?? path
    self.query = query
    self.headers = headers
    self.body = body
    self.peer = peer
  }

  /// The value of the first header with this name, compared case-insensitively (field names
  /// are case-insensitive in HTTP, and clients differ: `authorization`, `Authorization`).
  public func header(_ name: String) -> String? {
    headers.first { asciiCaseInsensitiveEqual($0.name, name) }?.value
  }

  /// The value of the first query pair with this name; names are compared exactly.
  public func queryValue(_ name: String) -> String? {
    query.first { $0.name == name }?.value
  }

  /// The pairs of a form body (`application/x-www-form-urlencoded`), decoded as a query is;
  /// `nil` when the body is not declared a form.
  public var formFields: [(name: String, value: String)]? {
    guard let type = header("Content-Type"),
      type.utf8.count >= 33,
      asciiCaseInsensitiveEqual(String(type.prefix(33)), "application/x-www-form-urlencoded")
    else { return nil }
    return PercentDecoding.query(String(decoding: body, as: UTF8.self))
  }
}

/// Whether two field names are equal ignoring ASCII case, without allocating lowercased copies.
func asciiCaseInsensitiveEqual(_ left: String, _ right: String) -> Bool {
  var rightBytes = right.utf8.makeIterator()
  for leftByte in left.utf8 {
    guard let rightByte = rightBytes.next(),
      HTTPBytes.lowercased(leftByte) == HTTPBytes.lowercased(rightByte)
    else { return false }
  }
  return rightBytes.next() == nil
}
