import GoTrue
import GoTrueEngine
import HTTPServer

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// How the server answers: GoTrue's JSON, its error shapes, its redirects.
enum Answer {
  /// `value` as GoTrue writes JSON: compact, `Content-Type: application/json`.
  static func json(_ value: some Encodable, status: Int = 200, headers: [(String, String)] = [])
    -> HTTPResponse
  {
    let body = (try? GoTrueCoding.serverEncoder().encode(value)).map(Array.init) ?? []
    return json(body: body, status: status, headers: headers)
  }

  /// `value` as ``json(_:status:headers:)`` writes it, by its own writer (the same bytes).
  static func json(
    _ value: some JSONWritable, status: Int = 200, headers: [(String, String)] = []
  ) -> HTTPResponse {
    json(body: value.serverJSON ?? [], status: status, headers: headers)
  }

  private static func json(body: [UInt8], status: Int, headers: [(String, String)])
    -> HTTPResponse
  {
    HTTPResponse(
      status: status, headers: [("Content-Type", "application/json")] + headers.map { ($0, $1) },
      body: body)
  }

  /// `{}`, GoTrue's answer when there is nothing to say.
  static let empty = json(JSONValue.object([:]))

  /// What GoTrue answers a request that may text a code: `{}`, with the `message_id` of the
  /// SMS when one went out.
  static func sent(_ messageID: String?) -> HTTPResponse {
    guard let messageID else { return empty }
    return json(JSONValue.object(["message_id": .string(messageID)]))
  }

  /// 204 with no body, as `/logout` answers.
  static let noContent = HTTPResponse(status: 204)

  /// `error` in the shape the request asked for (`X-Supabase-Api-Version`), with
  /// `x-sb-error-code`.
  static func error(_ error: GoTrueAPIError, for request: HTTPRequest) -> HTTPResponse {
    let versioned = GoTrueErrorBody.asksForVersionedShape(request.header("X-Supabase-Api-Version"))
    let (headers, body) = GoTrueErrorBody.encode(error, versioned: versioned)
    return HTTPResponse(
      status: error.status,
      headers: [("Content-Type", "application/json")] + headers.map { ($0, $1) }, body: body)
  }

  /// A failure of the engine as GoTrue would answer it.
  static func failure(_ failure: GoTrueFailure, for request: HTTPRequest) -> HTTPResponse {
    switch failure {
    case .api(let apiError): error(apiError, for: request)
    case .transport, .malformedResponse: error(unexpected, for: request)
    }
  }

  /// GoTrue's answer to a failure it did not foresee.
  static let unexpected = GoTrueAPIError(
    status: 500, code: .unexpectedFailure,
    message: "Unexpected failure, please check server logs for more information")

  /// `303 See Other` to `location`, with the small page Go writes for a GET.
  static func seeOther(_ location: String) -> HTTPResponse {
    let page = "<a href=\"\(htmlEscaped(location))\">See Other</a>.\n\n"
    return HTTPResponse(
      status: 303,
      headers: [("Location", location), ("Content-Type", "text/html; charset=utf-8")],
      body: Array(page.utf8))
  }

  /// Go's `http.NotFound`, GoTrue's answer for a path it does not serve.
  static let notFound = HTTPResponse(
    status: 404, headers: [("Content-Type", "text/plain; charset=utf-8")],
    body: Array("404 page not found\n".utf8))

  /// A plain-text answer (the outbox's and the clock's refusals).
  static func text(_ status: Int, _ body: String) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: [("Content-Type", "text/plain; charset=utf-8")],
      body: Array(body.utf8))
  }

  /// chi's answer for a known path asked with a method it does not take: 405, one `Allow`
  /// field per method the path takes (none for a method chi has no entry for), no body.
  static func methodNotAllowed(allowing methods: [HTTPMethod]) -> HTTPResponse {
    HTTPResponse(status: 405, headers: methods.map { ("Allow", $0.rawValue) })
  }

  private static func htmlEscaped(_ text: String) -> String {
    text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
      .replacing("\"", with: "&quot;").replacing("'", with: "&#39;")
  }
}

/// A JSON request body, read the way GoTrue's Go decoder reads one: an object whose field
/// names match case-insensitively, unknown fields ignored, `null` the same as absent.
struct RequestBody {
  private let fields: [String: JSONValue]

  /// An empty body, for requests that may come without one.
  static let none = RequestBody(fields: [:])

  private init(fields: [String: JSONValue]) {
    self.fields = fields
  }

  /// Reads `bytes`, or answers 400 `bad_json` as GoTrue does (an empty body too).
  init(_ bytes: [UInt8]) throws(GoTrueFailure) {
    // Go's syntax check comes first, in its words; then what Go would read otherwise.
    if let message = GoJSONSyntax.error(in: bytes) { throw Self.badJSON(message) }
    if let problem = StrictJSON.problem(in: bytes) { throw Self.badJSON(problem.message) }
    guard let value = JSONValue(parsing: bytes) else {
      throw Self.badJSON("invalid character in JSON input")
    }
    guard case .object(let object) = value else {
      throw Self.badJSON(
        "json: cannot unmarshal \(Self.kind(of: value)) into Go value of type object")
    }
    var fields: [String: JSONValue] = [:]
    for (key, member) in object { fields[key.lowercased()] = member }
    self.fields = fields
  }

  /// A form body's fields (`/token` takes forms too), each name's first value as a string, as
  /// Go's `r.FormValue` reads them.
  init(form pairs: [(name: String, value: String)]) {
    var fields: [String: JSONValue] = [:]
    for pair in pairs where fields[pair.name.lowercased()] == nil {
      fields[pair.name.lowercased()] = .string(pair.value)
    }
    self.fields = fields
  }

  /// Reads `bytes` when there are any; an empty body is an empty object.
  static func optional(_ bytes: [UInt8]) throws(GoTrueFailure) -> RequestBody {
    bytes.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
      ? .none : try RequestBody(bytes)
  }

  /// The body as one of the wire contract's body types, read as Go reads a struct
  /// (``GoFieldDecoder``): a field of the wrong kind is 400 `bad_json` in Go's words.
  func decode<Body: Decodable>(_ type: Body.Type = Body.self) throws(GoTrueFailure) -> Body {
    do {
      return try Body(from: GoFieldDecoder(fields: fields))
    } catch let mismatch as GoFieldDecoder.Mismatch {
      throw Self.badJSON(mismatch.message)
    } catch {
      throw Self.badJSON("\(error)")
    }
  }

  private static func kind(of value: JSONValue) -> String {
    switch value {
    case .null: "null"
    case .bool: "bool"
    case .number: "number"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    }
  }

  private static func badJSON(_ detail: String) -> GoTrueFailure {
    .api(
      GoTrueAPIError(
        status: 400, code: .badJSON, message: "Could not parse request body as JSON: \(detail)"))
  }
}

extension GoTrueAPIError {
  /// 400 `validation_failed` with `message`.
  static func invalid(_ message: String, status: Int = 400) -> GoTrueAPIError {
    GoTrueAPIError(status: status, code: .validationFailed, message: message)
  }
}
