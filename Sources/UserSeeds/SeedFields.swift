import AuthCrypto
import FirebaseEmulator
import GoTrue
import GoTrueEngine

/// The checks both formats hold an account's fields to, each failing with what is right.
enum SeedFields {
  /// A UUID (lowercased, as GoTrue keeps ids), or a Firebase uid of 1 to 128 characters with
  /// no spaces or control characters (such an account is reached on the Firebase surface only:
  /// GoTrue's tokens need a UUID).
  static func id(_ text: String?, _ reader: EntryReader, field: String) throws(UsersFileError)
    -> String
  {
    guard let text, !text.isEmpty else {
      throw reader.fail(field, "is missing; every account needs a fixed id (a UUID)")
    }
    if UUIDText.isValid(text) { return text.lowercased() }
    let plain = text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F }
    guard text.count <= 128, plain else {
      throw reader.fail(
        field, "must be a UUID, or a Firebase uid of 1 to 128 characters without spaces")
    }
    return text
  }

  /// The address, normalized as GoTrue normalizes it.
  static func email(_ text: String, _ reader: EntryReader, field: String) throws(UsersFileError)
    -> String
  {
    do {
      return try EmailRules.validated(text)
    } catch {
      throw reader.fail(field, "\(text.prefix(80)) is not an email address (local@domain)")
    }
  }

  /// A phone number, E.164 (the `+` optional, spaces dropped), as GoTrue keeps it: digits.
  static func phone(_ text: String, _ reader: EntryReader, field: String)
    throws(UsersFileError) -> String
  {
    do {
      return try PhoneRules.normalized(text)
    } catch {
      throw reader.fail(
        field, "\(text.prefix(40)) is not an E.164 phone number (such as +15555550100)")
    }
  }

  /// A plain password bcrypt can take: 1 to 72 bytes, no NUL.
  static func plain(_ password: String, _ reader: EntryReader, field: String)
    throws(UsersFileError) -> SeedAccount.Password
  {
    guard !password.isEmpty, password.utf8.count <= 72, !password.utf8.contains(0) else {
      throw reader.fail(field, "must be 1 to 72 bytes (bcrypt's limit) without NUL")
    }
    return .plain(password)
  }

  /// Whether `hash` is a bcrypt hash: `$2a$`, `$2b$` or `$2y$`, a cost from 04 to 31, and 53
  /// characters of bcrypt's base64 (22 of salt, 31 of hash).
  static func isBcrypt(_ hash: String) -> Bool {
    let bytes = Array(hash.utf8)
    guard bytes.count == 60, bytes[0] == UInt8(ascii: "$"), bytes[1] == UInt8(ascii: "2"),
      "aby".utf8.contains(bytes[2]), bytes[3] == UInt8(ascii: "$"), bytes[6] == UInt8(ascii: "$"),
      let cost = Int(String(decoding: bytes[4...5], as: UTF8.self)), (4...31).contains(cost)
    else { return false }
    let alphabet = Set("./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
    return bytes[7...].allSatisfy(alphabet.contains)
  }

  /// `hash` when it is bcrypt at a cost the engine takes: each step of cost doubles a sign-in's
  /// work, and one check at cost 31 would hold a CPU for a day.
  static func bcrypt(_ hash: String, _ reader: EntryReader, field: String)
    throws(UsersFileError) -> SeedAccount.Password
  {
    guard isBcrypt(hash) else {
      throw reader.fail(
        field, "is not a bcrypt hash ($2a$, $2b$ or $2y$, 60 characters); give one, or a password")
    }
    let highest = EngineConfiguration.hashCosts.upperBound
    if let cost = Bcrypt.cost(of: hash), cost > highest {
      throw reader.fail(
        field,
        "has bcrypt cost \(cost), above the highest authflow checks at sign-in (\(highest)); "
          + "rehash it at cost \(highest) or lower, or give a password")
    }
    return .bcrypt(hash)
  }

  /// Custom claims as Firebase takes them (an object of at most 1000 characters naming no
  /// reserved claim), as their JSON text.
  static func claims(serialized text: String, _ reader: EntryReader, field: String)
    throws(UsersFileError) -> String
  {
    do {
      _ = try FirebaseCustomClaims.parse(serialized: text)
    } catch {
      throw reader.fail(
        field,
        "are not custom claims Firebase takes (\(error.message)): a JSON object of at most "
          + "1000 characters naming no reserved claim (sub, iss, aud, …)")
    }
    return text
  }
}
