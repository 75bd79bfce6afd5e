import GoTrue
import GoTrueEngine

/// The body of `POST` and `PUT /admin/sso/providers…` read as Go's `json.Unmarshal` fills
/// GoTrue's `CreateSSOProviderParams`: member names matched ignoring case, `null` the same as
/// absent, a member of the wrong kind refused (400 `bad_json`) in Go's words.
struct SSOProviderBody: Decodable {
  var type: String?
  var metadataURL: String?
  var metadataXML: String?
  var domains: JSONValue?
  var attributeMapping: JSONValue?
  var nameIDFormat: String?
  var resourceID: String?
  var disabled: Bool?

  enum CodingKeys: String, CodingKey {
    case type
    case metadataURL = "metadata_url"
    case metadataXML = "metadata_xml"
    case domains
    case attributeMapping = "attribute_mapping"
    case nameIDFormat = "name_id_format"
    case resourceID = "resource_id"
    case disabled
  }

  /// The parameters of `body`.
  static func params(_ body: RequestBody) throws(GoTrueFailure) -> SSOProviderParams {
    let read = try body.decode(SSOProviderBody.self)
    var params = SSOProviderParams()
    params.type = read.type ?? ""
    params.metadataURL = read.metadataURL ?? ""
    params.metadataXML = read.metadataXML ?? ""
    params.nameIDFormat = read.nameIDFormat ?? ""
    params.resourceID = read.resourceID
    params.disabled = read.disabled
    params.domains = try read.domains.map { value throws(GoTrueFailure) in
      try strings(value, field: "domains")
    }
    params.attributeMapping = try mapping(read.attributeMapping)
    return params
  }

  /// A `[]string` member (`null` items are empty strings, as Go leaves them).
  private static func strings(_ value: JSONValue, field: String) throws(GoTrueFailure)
    -> [String]
  {
    guard case .array(let items) = value else { throw mismatch(value, field, "[]string") }
    var strings: [String] = []
    for item in items {
      switch item {
      case .string(let text): strings.append(text)
      case .null: strings.append("")
      default: throw mismatch(item, field, "string")
      }
    }
    return strings
  }

  /// `attribute_mapping` as `models.SAMLAttributeMapping` reads it.
  private static func mapping(_ value: JSONValue?) throws(GoTrueFailure) -> SAMLAttributeMapping {
    let field = "attribute_mapping"
    switch value {
    case nil, .null?: return SAMLAttributeMapping()
    case .object(let members)?:
      switch member("keys", of: members) {
      case nil, .null?: return SAMLAttributeMapping()
      case .object(let claims)?:
        var keys: [String: SAMLAttribute] = [:]
        for (claim, value) in claims {
          keys[claim] = try attribute(value, field: "\(field).keys.\(claim)")
        }
        return SAMLAttributeMapping(keys: keys)
      case let other?:
        throw mismatch(other, field + ".keys", "map[string]models.SAMLAttribute")
      }
    case let other?: throw mismatch(other, field, "models.SAMLAttributeMapping")
    }
  }

  /// One claim, as `models.SAMLAttribute` reads it (`null` is an empty one).
  private static func attribute(_ value: JSONValue, field: String) throws(GoTrueFailure)
    -> SAMLAttribute
  {
    var attribute = SAMLAttribute(name: "", names: [], defaultValue: nil, array: false)
    switch value {
    case .null: return attribute
    case .object(let fields):
      switch member("name", of: fields) {
      case nil, .null?: break
      case .string(let name)?: attribute.name = name
      case let other?: throw mismatch(other, field + ".name", "string")
      }
      if let names = member("names", of: fields), names != .null {
        attribute.names = try strings(names, field: field + ".names")
      }
      if let value = member("default", of: fields), value != .null {
        attribute.defaultValue = value
      }
      switch member("array", of: fields) {
      case nil, .null?: break
      case .bool(let array)?: attribute.array = array
      case let other?: throw mismatch(other, field + ".array", "bool")
      }
      return attribute
    default: throw mismatch(value, field, "models.SAMLAttribute")
    }
  }

  /// Member `name` of a Go struct's JSON, its name matched ignoring case as Go matches it.
  private static func member(_ name: String, of members: [String: JSONValue]) -> JSONValue? {
    members[name] ?? members.first { $0.key.lowercased() == name }?.value
  }

  private static func mismatch(_ value: JSONValue, _ field: String, _ type: String)
    -> GoTrueFailure
  {
    let kind =
      switch value {
      case .null: "null"
      case .bool: "bool"
      case .number: "number"
      case .string: "string"
      case .array: "array"
      case .object: "object"
      }
    return .api(
      GoTrueAPIError(
        status: 400, code: .badJSON,
        message:
          "Could not parse request body as JSON: json: cannot unmarshal \(kind) into Go struct "
          + "field .\(field) of type \(type)"))
  }
}
