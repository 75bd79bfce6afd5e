import GoTrue
import PrivateFiles

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A users file: the accounts a store is seeded with, in authflow's format
/// (`{"users":[{"id":…,"email":…,"password":…}]}`, GoTrue's admin names) or as the Firebase
/// Auth emulator exports them (`accounts.json`: `kind`, `users` with `localId`). The format is
/// told by its shape; every entry is checked before anything is applied.
package enum UsersFile {
  /// The two formats a users file may have.
  package enum Format: String, CaseIterable, Sendable {
    /// authflow's own, named as GoTrue's admin API names a user's attributes.
    case authflow
    /// The Firebase Auth emulator's `accounts.json` (`accounts:batchGet`'s answer).
    case firebase
  }

  /// The largest file read: fixtures, not a production export.
  static let maximumBytes = 64 << 20

  /// The accounts of the file at `path`.
  package static func read(path: String) throws(UsersFileError) -> [SeedAccount] {
    let bytes: [UInt8]?
    do {
      bytes = try PrivateFile.read(path)
    } catch {
      throw UsersFileError(file: path, problem: "cannot be read (\(error.reason))")
    }
    guard let bytes else {
      throw UsersFileError(file: path, problem: "does not exist; pass --users with a JSON file")
    }
    return try parse(bytes, file: path)
  }

  /// The accounts of `bytes`, a file named `file` in messages.
  package static func parse(_ bytes: [UInt8], file: String) throws(UsersFileError)
    -> [SeedAccount]
  {
    guard bytes.count <= maximumBytes else {
      throw UsersFileError(file: file, problem: "is larger than 64 MiB")
    }
    if let problem = StrictJSON.problem(in: bytes) {
      throw UsersFileError(file: file, problem: "is not JSON: \(problem.message)")
    }
    guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)),
      case .object(let top) = value
    else {
      throw UsersFileError(
        file: file, problem: "is not a JSON object; write {\"users\": [{\"id\": …}, …]}")
    }
    let accounts: [SeedAccount]
    let format = format(of: top)
    switch format {
    case .authflow: accounts = try authflowAccounts(top, file: file)
    case .firebase: accounts = try firebaseAccounts(top, file: file)
    }
    try checkUnique(accounts, file: file, phoneField: format == .firebase ? "phoneNumber" : "phone")
    return accounts
  }

  /// Firebase's when the object has a `kind`, or a user with a `localId`; else authflow's.
  static func format(of top: [String: JSONValue]) -> Format {
    if top["kind"] != nil { return .firebase }
    if case .array(let users)? = top["users"],
      users.contains(where: { $0.objectValue?["localId"] != nil })
    {
      return .firebase
    }
    return .authflow
  }

  /// The accounts of the file's `users`, each entry read by `read` with errors naming it by
  /// `idField`; a top-level member outside `known` is refused, `shape` saying what the file is.
  static func accounts(
    _ top: [String: JSONValue], file: String, known: Set<String>, shape: String, idField: String,
    read: (inout EntryReader) throws(UsersFileError) -> SeedAccount
  ) throws(UsersFileError) -> [SeedAccount] {
    if let other = top.keys.sorted().first(where: { !known.contains($0) }) {
      throw UsersFileError(
        file: file, field: String(other.prefix(40)), problem: "is not read; \(shape)")
    }
    var accounts: [SeedAccount] = []
    for (index, entry) in try entries(top, file: file).enumerated() {
      let place = label(index, entry, idField: idField)
      var reader = try EntryReader(entry) { field, problem in
        UsersFileError(file: file, entry: place, field: field, problem: problem)
      }
      accounts.append(try read(&reader))
    }
    return accounts
  }

  /// The entries of `users`, an array (absent or empty: no accounts).
  static func entries(_ top: [String: JSONValue], file: String) throws(UsersFileError)
    -> [JSONValue]
  {
    switch top["users"] {
    case nil, .null?: return []
    case .array(let users)?: return users
    default:
      throw UsersFileError(file: file, field: "users", problem: "must be an array of users")
    }
  }

  /// `users[i]`, with the entry's id when it has a string one.
  static func label(_ index: Int, _ entry: JSONValue, idField: String) -> String {
    guard let id = entry.objectValue?[idField]?.stringValue, !id.isEmpty else {
      return "users[\(index)]"
    }
    return "users[\(index)] (\(id.prefix(64)))"
  }

  /// No two accounts share an id, an address or a phone number (`phoneField` in the format).
  private static func checkUnique(_ accounts: [SeedAccount], file: String, phoneField: String)
    throws(UsersFileError)
  {
    var ids: [String: Int] = [:]
    var emails: [String: Int] = [:]
    var phones: [String: Int] = [:]
    for (index, account) in accounts.enumerated() {
      if let first = ids.updateValue(index, forKey: account.id) {
        throw UsersFileError(
          file: file, entry: "users[\(index)] (\(account.id))", field: "id",
          problem: "is also users[\(first)]'s; each account needs its own id")
      }
      if let email = account.email, let first = emails.updateValue(index, forKey: email) {
        throw UsersFileError(
          file: file, entry: "users[\(index)] (\(account.id))", field: "email",
          problem: "\(email) is also users[\(first)]'s; each account needs its own address")
      }
      if let phone = account.phone, let first = phones.updateValue(index, forKey: phone) {
        throw UsersFileError(
          file: file, entry: "users[\(index)] (\(account.id))",
          field: phoneField,
          problem: "+\(phone) is also users[\(first)]'s; each account needs its own number")
      }
    }
  }
}
