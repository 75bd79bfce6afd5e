/// One entry of an error body's `errors` list, its fields in the order the Auth emulator
/// writes them (the order differs between its error classes).
public struct IdentityToolkitErrorItem: Equatable, Hashable, Sendable {
  /// One field of the entry.
  public struct Field: Equatable, Hashable, Sendable {
    /// The key (`message`, `reason`, `domain`, `location`, `locationType`).
    public var name: String
    /// The value.
    public var value: String

    /// The field `name: value`.
    public init(_ name: String, _ value: String) {
      self.name = name
      self.value = value
    }
  }

  /// The fields, in order.
  public var fields: [Field]

  /// An entry with `fields` in this order.
  public init(_ fields: [Field]) {
    self.fields = fields
  }

  /// The entry of a plain `400` (`assert(…)` in the emulator) and of a schema error:
  /// `message`, `reason: invalid`, `domain: global`.
  public static func invalid(_ message: String) -> Self {
    Self([Field("message", message), Field("reason", "invalid"), Field("domain", "global")])
  }

  /// The entry of a body that is not JSON: `message`, `domain: global`, `reason: parseError`.
  public static func parseError(_ message: String) -> Self {
    Self([Field("message", message), Field("domain", "global"), Field("reason", "parseError")])
  }

  /// The entry of a `403` for a missing API key: `message`, `reason: forbidden`,
  /// `domain: global`.
  public static func forbidden(_ message: String) -> Self {
    Self([Field("message", message), Field("reason", "forbidden"), Field("domain", "global")])
  }

  /// An entry of `message` and a bare `reason` (`notFound`, `unimplemented`, …).
  public static func reason(_ reason: String, _ message: String) -> Self {
    Self([Field("message", message), Field("reason", reason)])
  }

  /// The entry of a `401` about the `Authorization` header.
  public static func authorization(_ message: String, reason: String) -> Self {
    Self([
      Field("message", message), Field("domain", "global"), Field("reason", reason),
      Field("location", "Authorization"), Field("locationType", "header"),
    ])
  }

  /// The entry the emulator gives an error of this status and status word.
  static func standard(for error: IdentityToolkitError) -> Self {
    switch (error.status, error.statusName) {
    case (403, _): .forbidden(error.message)
    case (404, _): .reason("notFound", error.message)
    case (501, _): .reason("unimplemented", error.message)
    case (500..., let name?): .reason(name == "INTERNAL" ? "internal" : "unknown", error.message)
    default: .invalid(error.message)
    }
  }

  var json: EmulatorJSON {
    .object(fields.map { EmulatorJSON.Member($0.name, .string($0.value)) })
  }
}

extension IdentityToolkitErrorBody {
  /// `error` byte for byte as the Auth emulator answers it: `{"error":{"code","message",
  /// "errors","status"}}` indented by two spaces (Express's `json spaces: 2`), `status` left
  /// out when the error has none, as for every plain `400`.
  ///
  /// `items` replace the one entry the emulator's error class would give.
  public static func emulatorBytes(
    _ error: IdentityToolkitError, items: [IdentityToolkitErrorItem]? = nil
  ) -> [UInt8] {
    let entries = items ?? [.standard(for: error)]
    let body = EmulatorJSON.members([
      "code": .int(Int64(error.status)), "message": .string(error.message),
      "errors": .array(entries.map(\.json)), "status": EmulatorJSON.maybe(error.statusName),
    ])
    return EmulatorJSON.object([EmulatorJSON.Member("error", body)]).prettyBytes
  }
}

extension IdentityToolkitError {
  /// `403 PERMISSION_DENIED`: a request that needs an API key came without one.
  public static let missingAPIKey = IdentityToolkitError(
    status: 403, message: "The request is missing a valid API key.",
    statusName: "PERMISSION_DENIED")

  /// `404 NOT_FOUND`: a path the emulator does not serve.
  public static let notFound = IdentityToolkitError(
    status: 404, message: "Not Found", statusName: "NOT_FOUND")

  /// `401 UNAUTHENTICATED`: a bearer token that is neither `owner` nor an OAuth token.
  public static let invalidCredentials = IdentityToolkitError(
    status: 401,
    message:
      "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
    statusName: "UNAUTHENTICATED")

  /// The `errors` entry of ``invalidCredentials``.
  public static let invalidCredentialsItem = IdentityToolkitErrorItem.authorization(
    "Invalid Credentials", reason: "authError")

  /// `400 INVALID_ARGUMENT`: a body that is not JSON, or a field of the wrong type.
  public static func invalidPayload(_ detail: String) -> IdentityToolkitError {
    IdentityToolkitError(
      status: 400, message: "Invalid JSON payload received. \(detail)",
      statusName: "INVALID_ARGUMENT")
  }

  /// A plain `400` with `code` and an optional detail, as the emulator's `assert` makes them.
  public static func badRequest(_ code: IdentityToolkitErrorCode, _ detail: String? = nil)
    -> IdentityToolkitError
  {
    IdentityToolkitError(status: 400, code: code, detail: detail)
  }
}
