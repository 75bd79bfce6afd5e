import GoTrue

/// How a SAML provider's assertion attributes become a user's claims (GoTrue's
/// `models.SAMLAttributeMapping`): per claim, the attribute's name or names, a default, and
/// whether it is a list.
package struct SAMLAttributeMapping: Sendable, Equatable {
  /// The claims; `nil` when the mapping had no `keys` (an update then leaves it as it was).
  package var keys: [String: SAMLAttribute]?

  /// A mapping of `keys`.
  package init(keys: [String: SAMLAttribute]? = nil) {
    self.keys = keys
  }

  /// A mapping as GoTrue keeps one (`{"keys":{…}}`), read leniently: what is not of its shape
  /// is left out.
  package init(stored text: String?) {
    guard let text, case .object(let members)? = JSONValue(parsing: Array(text.utf8)),
      case .object(let keys)? = members["keys"]
    else { return }
    self.keys = keys.compactMapValues { value in
      guard case .object(let fields) = value else { return nil }
      return SAMLAttribute(
        name: fields["name"]?.stringValue ?? "",
        names: fields["names"].flatMap { names in
          guard case .array(let items) = names else { return nil }
          return items.map { $0.stringValue ?? "" }
        } ?? [],
        defaultValue: fields["default"] == .null ? nil : fields["default"],
        array: fields["array"] == .bool(true))
    }
  }

  /// The mapping as GoTrue writes it (`json.Marshal`, every member `omitempty`): `{}` without
  /// claims.
  package var json: JSONValue {
    guard let keys, !keys.isEmpty else { return .object([:]) }
    return .object(["keys": .object(keys.mapValues(\.json))])
  }

  /// GoTrue's `SAMLAttributeMapping.Equal`: the same claims with the same names (in order),
  /// default and list flag; no `keys` is the same as none.
  package func matches(_ other: SAMLAttributeMapping) -> Bool {
    if keys == nil && other.keys == nil { return true }
    let mine = keys ?? [:]
    let theirs = other.keys ?? [:]
    guard mine.count == theirs.count else { return false }
    return mine.allSatisfy { name, attribute in theirs[name] == attribute }
  }
}

/// One claim of a ``SAMLAttributeMapping`` (GoTrue's `models.SAMLAttribute`).
package struct SAMLAttribute: Sendable, Equatable {
  /// The assertion attribute it comes from.
  package var name: String
  /// Or the first of these that the assertion has.
  package var names: [String]
  /// The value when the assertion has none of them; `nil` for none (JSON `null` too).
  package var defaultValue: JSONValue?
  /// Whether the claim is a list of all the attribute's values.
  package var array: Bool

  /// A claim of its parts.
  package init(name: String, names: [String], defaultValue: JSONValue?, array: Bool) {
    self.name = name
    self.names = names
    self.defaultValue = defaultValue
    self.array = array
  }

  /// The claim as Go writes it, empty members left out.
  var json: JSONValue {
    var members: [String: JSONValue] = [:]
    if !name.isEmpty { members["name"] = .string(name) }
    if !names.isEmpty { members["names"] = .array(names.map(JSONValue.string)) }
    if let defaultValue { members["default"] = defaultValue }
    if array { members["array"] = .bool(true) }
    return .object(members)
  }
}
