import HTTPServer

/// How a request's `Origin` is answered.
enum CrossOrigin: Equatable, Sendable {
  /// No `Origin`: nothing to grant.
  case none
  /// A page on this machine: granted as GoTrue and the emulator grant any origin.
  case local
  /// A page of another site, on a public route: granted as GoTrue and the emulator grant it,
  /// but the Firebase surface lets it send no `Authorization` (the header `Bearer owner`
  /// rides in) and grants it no Private Network Access.
  case foreign
  /// A page of another site, on a privileged route: nothing granted.
  case refused
}

/// Cross-origin answers as GoTrue's `rs/cors` setup gives them, so a web app on another port
/// (supabase-js in a browser) can call the server: any origin, with credentials, except on the
/// privileged routes (``LocalTrust``).
enum CORS {
  /// The methods cross-origin requests may use.
  static let methods = "GET, POST, PUT, PATCH, DELETE"
  /// The request headers they may send.
  static let allowedHeaders = [
    "Accept", "Authorization", "Content-Type", "X-Client-IP", "X-Client-Info", "X-JWT-AUD",
    "x-use-cookie", "X-Supabase-Api-Version", "apikey",
  ]
  /// The answer headers scripts may read.
  static let exposedHeaders = "X-Total-Count, Link, X-Supabase-Api-Version"

  /// The answer to a preflight `OPTIONS`: 204 with what may be sent, or, for a request that is
  /// not a preflight, 204 alone (nothing else takes OPTIONS); 403 for a refused origin.
  static func preflight(_ request: HTTPRequest, origin kind: CrossOrigin) -> HTTPResponse {
    if kind == .refused { return refusedPreflight }
    guard let origin = request.header("Origin"),
      let method = request.header("Access-Control-Request-Method")
    else { return HTTPResponse(status: 204) }
    var headers: [(name: String, value: String)] = [
      ("Access-Control-Allow-Origin", origin), ("Access-Control-Allow-Credentials", "true"),
      ("Access-Control-Allow-Methods", method.uppercased()), ("Vary", "Origin"),
      ("Access-Control-Max-Age", "300"),
    ]
    if let asked = request.header("Access-Control-Request-Headers") {
      let allowed = Set(allowedHeaders.map { $0.lowercased() })
      let granted = asked.split(separator: ",").map { $0.trimmingCharacters(in: " ") }
        .filter { allowed.contains($0.lowercased()) }
      if !granted.isEmpty {
        headers.append(("Access-Control-Allow-Headers", granted.joined(separator: ", ")))
      }
    }
    return HTTPResponse(status: 204, headers: headers)
  }

  /// `response` with the headers a cross-origin request needs, when it is one and is granted.
  static func decorate(_ response: HTTPResponse, for request: HTTPRequest, origin kind: CrossOrigin)
    -> HTTPResponse
  {
    guard kind != .refused, let origin = request.header("Origin") else { return response }
    var response = response
    response.headers += [
      ("Access-Control-Allow-Origin", origin), ("Access-Control-Allow-Credentials", "true"),
      ("Access-Control-Expose-Headers", exposedHeaders), ("Vary", "Origin"),
    ]
    return response
  }

  /// A preflight refused: no grant, so the browser sends nothing.
  static let refusedPreflight = HTTPResponse(
    status: 403, headers: [("Content-Type", "text/plain; charset=utf-8"), ("Vary", "Origin")],
    body: Array("this route answers no web page of another site\n".utf8))
}

extension Substring {
  fileprivate func trimmingCharacters(in set: Character) -> String {
    String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
  }
}
