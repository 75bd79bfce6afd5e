#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// The server's answers written directly: the same members, omissions and defaults as the
// `encode(to:)` of each type (tests compare the bytes with the server encoder's).

extension GoTrueSession: JSONWritable {
  /// Writes the session as its `Encodable` conformance does.
  public func write(to writer: inout JSONWriter) {
    writer.object { object in
      object.member("access_token") { $0.string(accessToken) }
      object.member("token_type") { $0.string(tokenType) }
      object.member("expires_in") { $0.number(expiresIn) }
      if let expiresAt { object.member("expires_at") { $0.number(expiresAt) } }
      object.member("refresh_token") { $0.string(refreshToken) }
      object.member("user") { user.write(to: &$0) }
    }
  }
}

extension GoTrueUser: JSONWritable {
  /// Writes the user as ``encode(to:)`` does.
  public func write(to writer: inout JSONWriter) {
    let epoch = Date(timeIntervalSince1970: 0)
    writer.object { object in
      object.member("id") { $0.string(id) }
      object.member("aud") { $0.string(aud ?? "") }
      object.member("role") { $0.string(role ?? "") }
      object.member("email") { $0.string(email ?? "") }
      object.date("email_confirmed_at", emailConfirmedAt)
      object.date("invited_at", invitedAt)
      object.member("phone") { $0.string(phone ?? "") }
      object.date("phone_confirmed_at", phoneConfirmedAt)
      object.date("confirmation_sent_at", confirmationSentAt)
      object.date("confirmed_at", confirmedAt)
      object.date("recovery_sent_at", recoverySentAt)
      if let newEmail, !newEmail.isEmpty { object.member("new_email") { $0.string(newEmail) } }
      object.date("email_change_sent_at", emailChangeSentAt)
      if let newPhone, !newPhone.isEmpty { object.member("new_phone") { $0.string(newPhone) } }
      object.date("phone_change_sent_at", phoneChangeSentAt)
      object.date("reauthentication_sent_at", reauthenticationSentAt)
      object.date("last_sign_in_at", lastSignInAt)
      object.member("app_metadata") { $0.value(.object(appMetadata)) }
      object.member("user_metadata") { $0.value(.object(userMetadata)) }
      if let factors, !factors.isEmpty { object.member("factors") { $0.encoded(factors) } }
      object.member("identities") { writer in
        if let identities {
          writer.array(identities) { $1.write(to: &$0) }
        } else {
          writer.null()
        }
      }
      object.date("created_at", createdAt ?? epoch)
      object.date("updated_at", updatedAt ?? createdAt ?? epoch)
      object.date("banned_until", bannedUntil)
      object.date("deleted_at", deletedAt)
      object.member("is_anonymous") { $0.bool(isAnonymous) }
    }
  }
}

extension GoTrueIdentity: JSONWritable {
  /// Writes the identity as ``encode(to:)`` does.
  public func write(to writer: inout JSONWriter) {
    writer.object { object in
      if let identityId { object.member("identity_id") { $0.string(identityId) } }
      if let id { object.member("id") { $0.string(id) } }
      if let userId { object.member("user_id") { $0.string(userId) } }
      if let identityData { object.member("identity_data") { $0.value(.object(identityData)) } }
      object.member("provider") { $0.string(provider) }
      object.date("last_sign_in_at", lastSignInAt)
      object.date("created_at", createdAt)
      object.date("updated_at", updatedAt)
      if let email { object.member("email") { $0.string(email) } }
    }
  }
}

extension JSONObjectWriter {
  /// Adds a time member when there is a time, as `encodeIfPresent` does.
  fileprivate mutating func date(_ key: String, _ value: Date?) {
    if let value { member(key) { $0.date(value) } }
  }
}
