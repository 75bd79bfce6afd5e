import FirebaseEmulator
import GoTrue
import GoTrueEngine
import HTTPServer
import IdentityToolkit
import LocalPages

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One request to the Firebase surface, once its caller is known: privileged (`Bearer owner`,
/// as the Admin SDKs send to an emulator) or public (an API key).
struct FirebaseCall: Sendable {
  let request: HTTPRequest
  let parameters: [String]
  let emulation: FirebaseEmulation
  /// Whether the caller is an admin.
  let privileged: Bool
  /// Which requests come from this machine (what only `Bearer owner`'s callers may do).
  let trust: LocalTrust
  private let parsed: Result<FirebaseBody, IdentityToolkitError>

  /// The call of `request`, its JSON body read once.
  init(
    request: HTTPRequest, parameters: [String], emulation: FirebaseEmulation, privileged: Bool,
    trust: LocalTrust
  ) {
    self.request = request
    self.parameters = parameters
    self.emulation = emulation
    self.privileged = privileged
    self.trust = trust
    parsed = Result { () throws(IdentityToolkitError) in try FirebaseBody(request.body) }
  }

  /// The JSON body (an empty body is `{}`).
  func body() throws(IdentityToolkitError) -> FirebaseBody { try parsed.get() }

  /// The answer for a successful operation: compact JSON, as the emulator writes results.
  func json(_ value: some EmulatorEncodable) -> HTTPResponse {
    FirebaseAnswer.json(value.emulatorJSON)
  }
}

/// A request body as the emulator reads it: a JSON object whose keys are turned to camel case
/// (`refresh_token` is `refreshToken`), numbers accepted where a string is expected.
struct FirebaseBody: Sendable {
  private let fields: [String: JSONValue]
  /// Where the body sits in the request, as refusals name a member (`/`, or
  /// `/totpVerificationInfo/` for an object read as a request type's member).
  private(set) var path = "/"

  /// Reads `bytes`; nothing at all is an empty object.
  init(_ bytes: [UInt8]) throws(IdentityToolkitError) {
    guard !bytes.allSatisfy({ [0x20, 0x0A, 0x0D, 0x09].contains($0) }) else {
      fields = [:]
      return
    }
    // A member named twice (here or once in snake case) would be read as one or the other.
    if case .duplicateMember(let name)? = StrictJSON.problem(in: bytes) {
      throw .invalidPayload(StrictJSON.Problem.duplicateMember(name).message)
    }
    guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)) else {
      throw Self.unparsable
    }
    guard case .object(let object) = value else {
      throw .invalidPayload("/ should be object")
    }
    var fields: [String: JSONValue] = [:]
    for (key, member) in object {
      let name = Self.camelCased(key)
      guard fields.updateValue(member, forKey: name) == nil else {
        throw .invalidPayload(StrictJSON.Problem.duplicateMember(name).message)
      }
    }
    self.fields = fields
  }

  /// A form body's pairs (Secure Token also takes `application/x-www-form-urlencoded`).
  init(form pairs: [(name: String, value: String)]) {
    var fields: [String: JSONValue] = [:]
    for pair in pairs where fields[Self.camelCased(pair.name)] == nil {
      fields[Self.camelCased(pair.name)] = .string(pair.value)
    }
    self.fields = fields
  }

  /// A query's pairs, their names as they are (a query's names are not camel-cased).
  init(query pairs: [(name: String, value: String)]) {
    var fields: [String: JSONValue] = [:]
    for pair in pairs where fields[pair.name] == nil { fields[pair.name] = .string(pair.value) }
    self.fields = fields
  }

  /// The 400 for a body that is not JSON.
  static let unparsable = IdentityToolkitError.invalidPayload("Unexpected token in JSON")

  /// Whether the body has `name`, whatever its value (`null` counts as absent).
  func has(_ name: String) -> Bool {
    guard let value = fields[name] else { return false }
    return value != .null
  }

  /// Every member, keys in camel case, for an operation that reads the body whole.
  var members: [String: JSONValue] { fields }

  /// The string `name`; a number is taken as its text, as the emulator coerces it.
  func string(_ name: String) throws(IdentityToolkitError) -> String? {
    switch fields[name] {
    case nil, .null?: return nil
    case .string(let text)?: return text
    case .number(let number)?: return Self.text(of: number)
    default: throw mismatch(name, "string")
    }
  }

  /// The string `name` when it is there and not empty (the emulator's truthiness).
  func nonEmpty(_ name: String) throws(IdentityToolkitError) -> String? {
    guard let text = try string(name), !text.isEmpty else { return nil }
    return text
  }

  /// The boolean `name`.
  func bool(_ name: String) throws(IdentityToolkitError) -> Bool? {
    switch fields[name] {
    case nil, .null?: return nil
    case .bool(let flag)?: return flag
    default: throw mismatch(name, "boolean")
    }
  }

  /// The whole number `name`, from a number or a numeric string (`validSince`).
  func integer(_ name: String) throws(IdentityToolkitError) -> Int64? {
    switch fields[name] {
    case nil, .null?: return nil
    case .number(let number)? where number.isFinite && abs(number) < 1e15:
      return Int64(number.rounded(.down))
    case .string(let text)?:
      guard let number = Int64(text) else { throw mismatch(name, "integer") }
      return number
    default: throw mismatch(name, "integer")
    }
  }

  /// The list of strings `name` (a lone string is a list of one).
  func strings(_ name: String) throws(IdentityToolkitError) -> [String] {
    switch fields[name] {
    case nil, .null?: return []
    case .string(let text)?: return [text]
    case .array(let elements)?:
      var texts: [String] = []
      for element in elements {
        switch element {
        case .string(let text): texts.append(text)
        case .number(let number): texts.append(Self.text(of: number))
        default: throw mismatch(name, "array of strings")
        }
      }
      return texts
    default: throw mismatch(name, "array")
    }
  }

  /// The object `name`, as a body of its own.
  func object(_ name: String) throws(IdentityToolkitError) -> FirebaseBody? {
    switch fields[name] {
    case nil, .null?: return nil
    case .object(let object)?: return FirebaseBody(fields: object)
    default: throw mismatch(name, "object")
    }
  }

  /// The object `name` as a member of a request type: ``object(_:)``, its refusals naming the
  /// member's whole path (`/totpVerificationInfo/verificationCode should be string`).
  func member(_ name: String) throws(IdentityToolkitError) -> FirebaseBody? {
    guard var object = try object(name) else { return nil }
    object.path = path + name + "/"
    return object
  }

  /// The list of objects `name`, each as a body of its own whose refusals name its place
  /// (`/users/0/email should be string`).
  func objects(_ name: String) throws(IdentityToolkitError) -> [FirebaseBody] {
    switch fields[name] {
    case nil, .null?: return []
    case .array(let elements)?:
      var objects: [FirebaseBody] = []
      for (index, element) in elements.enumerated() {
        guard case .object(let members) = element else {
          throw .invalidPayload("\(path)\(name)/\(index) should be object")
        }
        var object = FirebaseBody(fields: members)
        object.path = path + name + "/\(index)/"
        objects.append(object)
      }
      return objects
    default: throw mismatch(name, "array")
    }
  }

  private init(fields: [String: JSONValue]) {
    var normalized: [String: JSONValue] = [:]
    for (key, value) in fields { normalized[Self.camelCased(key)] = value }
    self.fields = normalized
  }

  private func mismatch(_ name: String, _ type: String) -> IdentityToolkitError {
    .invalidPayload("\(path)\(name) should be \(type)")
  }

  private static func text(of number: Double) -> String {
    number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
  }

  /// `key` in camel case as lodash's `camelCase` makes it, which the emulator applies to every
  /// key of a body (`convertKeysToCamelCase`): split into words at anything but a letter or a
  /// digit, at a lower-case letter followed by a capital, around digits, and before the last
  /// capital of a run followed by a small letter (`photoURL` is `photo`, `URL`); then the first
  /// word in lower case and each other with a capital first (`photoUrl`, `grantType`).
  static func camelCased(_ key: String) -> String {
    // Most keys are camel case already, and read back the same.
    if key.utf8.allSatisfy({ isUpper($0) || isLower($0) }), let first = key.utf8.first,
      !isUpper(first), !hasCapitalRun(key)
    {
      return key
    }
    var result = ""
    for (index, word) in words(key).enumerated() {
      let lower = word.lowercased()
      result += index == 0 ? lower : lower.prefix(1).uppercased() + lower.dropFirst()
    }
    return result
  }

  /// lodash's words of an ASCII key.
  private static func words(_ key: String) -> [String] {
    let bytes = Array(key.utf8)
    var words: [String] = []
    var start: Int?
    func close(_ end: Int) {
      if let begin = start, begin < end {
        words.append(String(decoding: bytes[begin..<end], as: UTF8.self))
      }
      start = nil
    }
    for index in bytes.indices {
      let byte = bytes[index]
      guard isLetterOrDigit(byte) else {
        close(index)
        continue
      }
      if let begin = start, index > begin {
        let previous = bytes[index - 1]
        let next = index + 1 < bytes.count ? bytes[index + 1] : nil
        let breaks =
          isDigit(byte) != isDigit(previous)
          || (isUpper(byte) && isLower(previous))
          || (isUpper(byte) && isUpper(previous) && next.map(isLower) == true)
        if breaks { close(index) }
      }
      if start == nil { start = index }
    }
    close(bytes.count)
    return words
  }

  private static func hasCapitalRun(_ key: String) -> Bool {
    var previousUpper = false
    for byte in key.utf8 {
      if isUpper(byte) && previousUpper { return true }
      previousUpper = isUpper(byte)
    }
    return false
  }

  private static func isUpper(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
  }

  private static func isLower(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }

  private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
    isUpper(byte) || isLower(byte) || isDigit(byte)
  }

}
