/// Any JSON value, for the free-form metadata GoTrue stores with a user.
public enum JSONValue: Equatable, Hashable, Sendable, Codable, JSONWritable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number.
  case number(Double)
  /// A string.
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object.
  case object([String: JSONValue])

  /// Decodes whatever JSON value comes next. Each wrong guess costs a thrown error, so the
  /// likeliest kinds in metadata are tried first: strings and flags, then objects.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode([String: JSONValue].self) {
      self = .object(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else {
      self = .array(try container.decode([JSONValue].self))
    }
  }

  /// Encodes the value as JSON. Objects go through a keyed container; an encoder with
  /// `.sortedKeys` (as ``GoTrueCoding/serverEncoder()``) writes their keys in order, as Go writes
  /// a map, so the same value is always the same bytes.
  public func encode(to encoder: any Encoder) throws {
    if case .object(let value) = self {
      var object = encoder.container(keyedBy: Key.self)
      for key in value.keys.sorted() {
        if let member = value[key] { try object.encode(member, forKey: Key(key)) }
      }
      return
    }
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .number(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object: break
    }
  }

  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  /// The value as compact JSON, objects' keys sorted, as a Go server writes it (`null` for a
  /// value with a NaN or an infinity, which Foundation's encoder refuses).
  public var jsonBytes: [UInt8] { serverJSON ?? Array("null".utf8) }

  /// Writes the value, as ``GoTrueCoding/serverEncoder()`` would.
  public func write(to writer: inout JSONWriter) { writer.value(self) }

  /// The string, when this is one.
  public var stringValue: String? {
    if case .string(let value) = self { value } else { nil }
  }

  /// The number, when this is one.
  public var numberValue: Double? {
    if case .number(let value) = self { value } else { nil }
  }

  /// The elements, when this is an array.
  public var arrayValue: [JSONValue]? {
    if case .array(let value) = self { value } else { nil }
  }

  /// The members, when this is an object.
  public var objectValue: [String: JSONValue]? {
    if case .object(let value) = self { value } else { nil }
  }
}
