import GoTrue

/// Decodes a request body into one of the wire contract's body types (``GoTrueSignUpBody``…)
/// the way Go's `encoding/json` fills a struct: field names matched ignoring case, unknown
/// fields ignored, `null` the same as absent, and a value of the wrong kind refused in Go's
/// words. The body types hold only strings, booleans and JSON objects, as GoTrue's do.
struct GoFieldDecoder: Decoder {
  /// The body's members, their names lowercased.
  let fields: [String: JSONValue]
  var codingPath: [any CodingKey] = []
  var userInfo: [CodingUserInfoKey: Any] = [:]

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
    KeyedDecodingContainer(Fields<Key>(fields: fields))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    throw Mismatch(message: "json: cannot unmarshal object into Go value of type array")
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    throw Mismatch(message: "json: cannot unmarshal object into a Go value that is not a struct")
  }

  /// A value of another kind than the field's, in Go's words.
  struct Mismatch: Error {
    var message: String
  }

  private struct Fields<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let fields: [String: JSONValue]
    var codingPath: [any CodingKey] { [] }

    var allKeys: [Key] { fields.keys.compactMap { Key(stringValue: $0) } }

    private func value(_ key: Key) -> JSONValue? {
      switch fields[key.stringValue.lowercased()] {
      case nil, .null?: nil
      case let value?: value
      }
    }

    func contains(_ key: Key) -> Bool { value(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { value(key) == nil }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
      guard case .string(let text)? = value(key) else { throw mismatch(key, "string") }
      return text
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
      guard case .bool(let flag)? = value(key) else { throw mismatch(key, "bool") }
      return flag
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
      if T.self == [String: JSONValue].self {
        guard case .object(let object)? = value(key), let object = object as? T else {
          throw mismatch(key, "map[string]interface {}")
        }
        return object
      }
      if T.self == JSONValue.self, let value = value(key) as? T { return value }
      throw mismatch(key, "\(T.self)")
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
      throws -> KeyedDecodingContainer<NestedKey>
    {
      throw mismatch(key, "struct")
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
      throw mismatch(key, "array")
    }

    func superDecoder() throws -> any Decoder { GoFieldDecoder(fields: fields) }

    func superDecoder(forKey key: Key) throws -> any Decoder { throw mismatch(key, "struct") }

    private func mismatch(_ key: Key, _ type: String) -> Mismatch {
      let kind =
        switch value(key) {
        case nil, .null?: "null"
        case .bool?: "bool"
        case .number?: "number"
        case .string?: "string"
        case .array?: "array"
        case .object?: "object"
        }
      return Mismatch(
        message:
          "json: cannot unmarshal \(kind) into Go struct field .\(key.stringValue) of type \(type)")
    }
  }
}
