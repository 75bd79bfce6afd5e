import GoTrue

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A row of `users`.
struct UserRecord: Sendable {
  var id: String
  var email: String
  var passwordHash: String
  var emailConfirmedAt: Int64?
  var confirmationSentAt: Int64?
  var recoverySentAt: Int64?
  var lastSignInAt: Int64?
  var metadata: String
  var createdAt: Int64
  var updatedAt: Int64

  static let columns = """
    id, email, encrypted_password, email_confirmed_at, confirmation_sent_at, recovery_sent_at,
    last_sign_in_at, user_metadata, created_at, updated_at
    """

  init(_ row: SQLiteStatement) {
    id = row.text(0)
    email = row.text(1)
    passwordHash = row.text(2)
    emailConfirmedAt = row.optionalInt(3)
    confirmationSentAt = row.optionalInt(4)
    recoverySentAt = row.optionalInt(5)
    lastSignInAt = row.optionalInt(6)
    metadata = row.text(7)
    createdAt = row.int(8)
    updatedAt = row.int(9)
  }

  var isConfirmed: Bool { emailConfirmedAt != nil }

  /// The user as GoTrue would return it, with its one email identity.
  var goTrueUser: GoTrueUser {
    GoTrueUser(
      id: id, email: email, emailConfirmedAt: emailConfirmedAt.map(Date.init(millis:)),
      confirmationSentAt: confirmationSentAt.map(Date.init(millis:)),
      recoverySentAt: recoverySentAt.map(Date.init(millis:)),
      lastSignInAt: lastSignInAt.map(Date.init(millis:)),
      userMetadata: Self.decodeMetadata(metadata),
      identities: [GoTrueIdentity(identityId: id, userId: id, provider: "email")],
      createdAt: Date(millis: createdAt), updatedAt: Date(millis: updatedAt))
  }

  static func encodeMetadata(_ metadata: [String: JSONValue]) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return (try? encoder.encode(metadata)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
  }

  static func decodeMetadata(_ text: String) -> [String: JSONValue] {
    (try? JSONDecoder().decode([String: JSONValue].self, from: Data(text.utf8))) ?? [:]
  }
}

extension SQLiteDatabase {
  func user(email: String) throws -> UserRecord? {
    try first(
      "SELECT \(UserRecord.columns) FROM users WHERE email = ?", .text(email), row: UserRecord.init)
  }

  func user(id: String) throws -> UserRecord? {
    try first(
      "SELECT \(UserRecord.columns) FROM users WHERE id = ?", .text(id), row: UserRecord.init)
  }
}

extension Date {
  init(millis: Int64) {
    self.init(timeIntervalSince1970: TimeInterval(millis) / 1_000)
  }
}
