import GoTrue

/// GoTrue's check of the claims a custom access token hook answers (`CustomAccessTokenOutput`
/// in `hooks/v0hooks`, and `validateTokenClaims` with its `MinimumViableTokenSchema` in
/// `tokens/service.go`): the answer's `claims` replace the token's, and must keep the claims
/// every client reads, with their JSON types.
enum HookClaims {
  /// The claims a token must carry, in the schema's order.
  static let required = [
    "aud", "exp", "iat", "sub", "email", "phone", "role", "aal", "session_id", "is_anonymous",
  ]

  /// The JSON types each known claim may have, in the schema's order.
  static let types: [(claim: String, types: [String])] = [
    ("aud", ["string", "array"]), ("exp", ["integer"]), ("jti", ["string"]),
    ("iat", ["integer"]), ("iss", ["string"]), ("nbf", ["integer"]), ("sub", ["string"]),
    ("email", ["string"]), ("phone", ["string"]), ("app_metadata", ["object"]),
    ("user_metadata", ["object"]), ("role", ["string"]), ("aal", ["string"]),
    ("amr", ["array"]), ("session_id", ["string"]), ("client_id", ["string"]),
  ]

  /// The claims of a hook's `answer`, or GoTrue's 500 saying what is wrong with them.
  static func read(_ answer: [String: JSONValue]) throws(GoTrueAPIError) -> [String: JSONValue] {
    guard let value = answer["claims"] else { throw failure("output claims field is missing") }
    let claims: [String: JSONValue]
    switch value {
    case .object(let object): claims = object
    case .null: throw schemaFailure(["(root): Invalid type. Expected: object, given: null"])
    default: throw failure("Error unmarshaling JSON output.")
    }
    var problems = required.filter { claims[$0] == nil }.map { "(root): \($0) is required" }
    for (claim, allowed) in types {
      guard let given = claims[claim], !allowed.contains(where: { matches(given, $0) }) else {
        continue
      }
      let expected = allowed.count == 1 ? allowed[0] : "[\(allowed.joined(separator: ","))]"
      problems.append("\(claim): Invalid type. Expected: \(expected), given: \(typeName(given))")
    }
    if case .array(let entries)? = claims["amr"] {
      for (index, entry) in entries.enumerated()
      where !matches(entry, "string") && !matches(entry, "object") {
        problems.append("amr.\(index): Must validate at least one schema (anyOf)")
      }
    }
    guard problems.isEmpty else { throw schemaFailure(problems) }
    return claims
  }

  private static func failure(_ message: String) -> GoTrueAPIError {
    GoTrueAPIError(status: 500, code: nil, message: message)
  }

  private static func schemaFailure(_ problems: [String]) -> GoTrueAPIError {
    failure(
      "output claims do not conform to the expected schema: \n"
        + problems.map { "- \($0)\n" }.joined())
  }

  /// Whether `value` is of JSON Schema type `type`.
  private static func matches(_ value: JSONValue, _ type: String) -> Bool {
    switch (value, type) {
    case (.string, "string"), (.array, "array"), (.object, "object"), (.bool, "boolean"),
      (.null, "null"), (.number, "number"):
      true
    case (.number(let number), "integer"): number.rounded() == number && number.isFinite
    default: false
    }
  }

  /// The type JSON Schema names `value` by (a whole number is an `integer`).
  private static func typeName(_ value: JSONValue) -> String {
    switch value {
    case .null: "null"
    case .bool: "boolean"
    case .number: matches(value, "integer") ? "integer" : "number"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    }
  }
}
