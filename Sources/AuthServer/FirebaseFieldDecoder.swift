import IdentityToolkit

/// Decodes a request body into one of Identity Toolkit's request types
/// (``IdentityToolkitRequest``) with the emulator's leniency, through ``FirebaseBody``'s
/// reads: keys in camel case, a number where a string is expected, a numeric string where a
/// whole number is, a lone string for a list, an object (or each object of a list) as a request
/// type of its own, `null`
/// as absent, and a value of another kind refused in the emulator's words (`/email should be
/// string`, `/totpVerificationInfo/verificationCode should be string`).
struct FirebaseFieldDecoder: Decoder {
  let body: FirebaseBody
  var codingPath: [any CodingKey] = []
  var userInfo: [CodingUserInfoKey: Any] = [:]

  /// The emulator's refusal, carried through `Decodable`'s untyped throws.
  struct Refusal: Error {
    let error: IdentityToolkitError
  }

  /// `body` as `T`, or the emulator's refusal.
  static func decode<T: Decodable>(_ type: T.Type, from body: FirebaseBody)
    throws(IdentityToolkitError) -> T
  {
    do {
      return try T(from: FirebaseFieldDecoder(body: body))
    } catch let refusal as Refusal {
      throw refusal.error
    } catch {
      throw .invalidPayload("/ should be object")
    }
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
    KeyedDecodingContainer(Fields<Key>(body: body))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    throw Refusal(error: .invalidPayload("/ should be object"))
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    throw Refusal(error: .invalidPayload("/ should be object"))
  }

  private struct Fields<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let body: FirebaseBody
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { body.members.keys.compactMap { Key(stringValue: $0) } }

    /// The member's name as the body holds it: in camel case (`grant_type` is `grantType`).
    private func name(_ key: Key) -> String { FirebaseBody.camelCased(key.stringValue) }

    func contains(_ key: Key) -> Bool { body.has(name(key)) }

    func decodeNil(forKey key: Key) throws -> Bool { !body.has(name(key)) }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
      try read { () throws(IdentityToolkitError) in try body.string(name(key)) } ?? ""
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
      try read { () throws(IdentityToolkitError) in try body.bool(name(key)) } ?? false
    }

    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
      try read { () throws(IdentityToolkitError) in try body.integer(name(key)) } ?? 0
    }

    /// A list of strings, a list of objects each read as a request type of its own, or an
    /// object read as one.
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
      if T.self == [String].self {
        let texts = try read { () throws(IdentityToolkitError) in try body.strings(name(key)) }
        if let texts = texts as? T { return texts }
      }
      if let list = T.self as? any FirebaseObjectList.Type {
        let objects = try read { () throws(IdentityToolkitError) in try body.objects(name(key)) }
        guard let value = try list.read(objects) as? T else { throw refusal(key, "array") }
        return value
      }
      return try T(from: FirebaseFieldDecoder(body: try object(key)))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
      throws -> KeyedDecodingContainer<NestedKey>
    {
      KeyedDecodingContainer(Fields<NestedKey>(body: try object(key)))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
      throw refusal(key, "object")
    }

    func superDecoder() throws -> any Decoder { FirebaseFieldDecoder(body: body) }

    func superDecoder(forKey key: Key) throws -> any Decoder {
      throw refusal(key, "object")
    }

    /// The member `key` as a body of its own, its refusals naming its path.
    private func object(_ key: Key) throws -> FirebaseBody {
      guard
        let object = try read({ () throws(IdentityToolkitError) in try body.member(name(key)) })
      else { throw refusal(key, "object") }
      return object
    }

    private func refusal(_ key: Key, _ type: String) -> Refusal {
      Refusal(error: .invalidPayload("\(body.path)\(name(key)) should be \(type)"))
    }

    private func read<T>(_ body: () throws(IdentityToolkitError) -> T) throws -> T {
      do {
        return try body()
      } catch {
        throw Refusal(error: error)
      }
    }
  }
}

/// A list whose elements are read as request types of their own (`users` of
/// `accounts:batchCreate`, each user's `providerUserInfo`).
protocol FirebaseObjectList {
  /// The list of `objects`, each read as an element.
  static func read(_ objects: [FirebaseBody]) throws -> Self
}

extension Array: FirebaseObjectList where Element: Decodable {
  static func read(_ objects: [FirebaseBody]) throws -> Self {
    try objects.map { object in try Element(from: FirebaseFieldDecoder(body: object)) }
  }
}

extension FirebaseCall {
  /// The body as the operation's request type (``IdentityToolkitRequest``).
  func decode<T: Decodable>(_ type: T.Type) throws(IdentityToolkitError) -> T {
    try FirebaseFieldDecoder.decode(type, from: try body())
  }
}
