import GoTrue

/// The members of one object of a users file, read by name with their types checked; a member
/// no reader asked for is an error (``finish()``), so a misspelt field is never ignored.
struct EntryReader {
  private let members: [String: JSONValue]
  private var read: Set<String> = []
  private let error: (String?, String) -> UsersFileError

  /// A reader of `value`, which must be an object; `error` makes an error for a field.
  init(_ value: JSONValue, error: @escaping (String?, String) -> UsersFileError)
    throws(UsersFileError)
  {
    guard case .object(let members) = value else {
      throw error(nil, "is not a JSON object; each user is an object of fields")
    }
    self.members = members
    self.error = error
  }

  /// An error about `field`.
  func fail(_ field: String?, _ problem: String) -> UsersFileError { error(field, problem) }

  /// Whether `field` is present (not `null`), without reading it.
  func has(_ field: String) -> Bool {
    if let value = members[field], value != .null { true } else { false }
  }

  /// The value of `field`, marked read; `nil` when absent or `null`.
  mutating func value(_ field: String) -> JSONValue? {
    read.insert(field)
    guard let value = members[field], value != .null else { return nil }
    return value
  }

  /// The string `field`, or `nil` when absent.
  mutating func string(_ field: String) throws(UsersFileError) -> String? {
    guard let value = value(field) else { return nil }
    guard case .string(let text) = value else { throw fail(field, "must be a string") }
    return text
  }

  /// The boolean `field`, or `nil` when absent.
  mutating func bool(_ field: String) throws(UsersFileError) -> Bool? {
    guard let value = value(field) else { return nil }
    guard case .bool(let flag) = value else { throw fail(field, "must be true or false") }
    return flag
  }

  /// The object `field`, or `nil` when absent.
  mutating func object(_ field: String) throws(UsersFileError) -> [String: JSONValue]? {
    guard let value = value(field) else { return nil }
    guard case .object(let object) = value else { throw fail(field, "must be a JSON object") }
    return object
  }

  /// Unix milliseconds written as a number or a string of digits (the emulator's `createdAt`).
  mutating func millis(_ field: String) throws(UsersFileError) -> Int64? {
    let text: String
    switch value(field) {
    case nil: return nil
    case .string(let digits)?: text = digits
    case .number(let number)? where number.rounded() == number && abs(number) < 1e18:
      text = "\(Int64(number))"
    default: text = ""
    }
    guard let millis = Int64(text), (0...253_402_300_799_999).contains(millis) else {
      throw fail(field, "must be Unix milliseconds, such as \"1735689600000\"")
    }
    return millis
  }

  /// Fails on the first member that was never read, naming the fields that are read.
  func finish(known: [String]) throws(UsersFileError) {
    if let unknown = members.keys.sorted().first(where: { !read.contains($0) }) {
      throw fail(
        String(unknown.prefix(40)),
        "is not a field of this format; the fields are " + known.joined(separator: ", "))
    }
  }
}
