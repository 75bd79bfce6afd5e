/// Writes a request type (``IdentityToolkitRequest``) as ``EmulatorJSON``: its members in the
/// order its type encodes them (as the Firebase SDKs write them), absent optionals left out. The
/// request types hold strings, booleans, whole numbers, lists of strings, objects of those and
/// lists of such objects.
public enum EmulatorJSONEncoder {
  /// `value` as an object, or `nil` when it holds anything but those kinds.
  public static func encode(_ value: some Encodable) -> EmulatorJSON? {
    let encoder = ObjectEncoder()
    do {
      try value.encode(to: encoder)
    } catch {
      return nil
    }
    return .object(encoder.box.members)
  }

  /// `value` as the pairs of a form or a query (Secure Token's `grant_type=…`), in member
  /// order; `nil` when a member is not a string.
  public static func pairs(_ value: some Encodable) -> [(name: String, value: String)]? {
    guard case .object(let members)? = encode(value) else { return nil }
    var pairs: [(name: String, value: String)] = []
    for member in members {
      guard case .string(let text) = member.value else { return nil }
      pairs.append((member.name, text))
    }
    return pairs
  }

  /// A value the members are gathered in.
  private final class Box {
    var members: [EmulatorJSON.Member] = []
  }

  /// What the request types cannot hold.
  private struct Unsupported: Error {}

  private struct ObjectEncoder: Encoder {
    let box = Box()
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
      KeyedEncodingContainer(Members<Key>(box: box))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { Refusing() }

    func singleValueContainer() -> any SingleValueEncodingContainer { Refusing() }
  }

  private struct Members<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: Box
    var codingPath: [any CodingKey] { [] }

    private func add(_ key: Key, _ value: EmulatorJSON) {
      box.members.append(EmulatorJSON.Member(key.stringValue, value))
    }

    mutating func encodeNil(forKey key: Key) throws { add(key, .null) }
    mutating func encode(_ value: String, forKey key: Key) throws { add(key, .string(value)) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { add(key, .bool(value)) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { add(key, .int(value)) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
      if let texts = value as? [String] {
        add(key, .array(texts.map(EmulatorJSON.string)))
      } else if let list = value as? [any Encodable] {
        var objects: [EmulatorJSON] = []
        for element in list {
          let nested = ObjectEncoder()
          try element.encode(to: nested)
          objects.append(.object(nested.box.members))
        }
        add(key, .array(objects))
      } else {
        let nested = ObjectEncoder()
        try value.encode(to: nested)
        add(key, .object(nested.box.members))
      }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
      KeyedEncodingContainer(Members<NestedKey>(box: Box()))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
      Refusing()
    }

    mutating func superEncoder() -> any Encoder { ObjectEncoder() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { ObjectEncoder() }
  }

  /// A container for what the request types never hold: every write fails.
  private struct Refusing: UnkeyedEncodingContainer, SingleValueEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count: Int { 0 }

    mutating func encodeNil() throws { throw Unsupported() }
    mutating func encode<T: Encodable>(_ value: T) throws { throw Unsupported() }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
      -> KeyedEncodingContainer<NestedKey>
    {
      KeyedEncodingContainer(Members<NestedKey>(box: Box()))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { Refusing() }
    mutating func superEncoder() -> any Encoder { ObjectEncoder() }
  }
}
