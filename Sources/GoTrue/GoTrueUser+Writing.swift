#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// The server's answers written directly: the same members, omissions and defaults as the
// `encode(to:)` of each type (tests compare the bytes with the server encoder's).

extension GoTrueSession: JSONWritable {
  /// Writes the session as its `Encodable` conformance does (members in key order).
  public func write(to writer: inout JSONWriter) {
    writer.orderedObject { object in
      object.member("access_token") { $0.string(accessToken) }
      if let expiresAt { object.member("expires_at") { $0.number(expiresAt) } }
      object.member("expires_in") { $0.number(expiresIn) }
      object.member("refresh_token") { $0.string(refreshToken) }
      object.member("token_type") { $0.string(tokenType) }
      object.member("user") { user.write(to: &$0) }
    }
  }
}

extension GoTrueUser: JSONWritable {
  /// Writes the user as ``encode(to:)`` does (members in key order): a server writes one on
  /// every `GET /user`.
  public func write(to writer: inout JSONWriter) {
    let epoch = Date(timeIntervalSince1970: 0)
    writer.orderedObject { object in
      object.member("app_metadata") { $0.value(.object(appMetadata)) }
      object.member("aud") { $0.string(aud ?? "") }
      object.date("banned_until", bannedUntil)
      object.date("confirmation_sent_at", confirmationSentAt)
      object.date("confirmed_at", confirmedAt)
      object.date("created_at", createdAt ?? epoch)
      object.date("deleted_at", deletedAt)
      object.member("email") { $0.string(email ?? "") }
      object.date("email_change_sent_at", emailChangeSentAt)
      object.date("email_confirmed_at", emailConfirmedAt)
      if let factors, !factors.isEmpty { object.member("factors") { $0.encoded(factors) } }
      object.member("id") { $0.string(id) }
      object.member("identities") { writer in
        if let identities {
          writer.array(identities) { $1.write(to: &$0) }
        } else {
          writer.null()
        }
      }
      object.date("invited_at", invitedAt)
      object.member("is_anonymous") { $0.bool(isAnonymous) }
      object.date("last_sign_in_at", lastSignInAt)
      if let newEmail, !newEmail.isEmpty { object.member("new_email") { $0.string(newEmail) } }
      if let newPhone, !newPhone.isEmpty { object.member("new_phone") { $0.string(newPhone) } }
      object.member("phone") { $0.string(phone ?? "") }
      object.date("phone_change_sent_at", phoneChangeSentAt)
      object.date("phone_confirmed_at", phoneConfirmedAt)
      object.date("reauthentication_sent_at", reauthenticationSentAt)
      object.date("recovery_sent_at", recoverySentAt)
      object.member("role") { $0.string(role ?? "") }
      object.date("updated_at", updatedAt ?? createdAt ?? epoch)
      object.member("user_metadata") { $0.value(.object(userMetadata)) }
    }
  }
}

extension GoTrueIdentity: JSONWritable {
  /// Writes the identity as ``encode(to:)`` does (members in key order).
  public func write(to writer: inout JSONWriter) {
    writer.orderedObject { object in
      object.date("created_at", createdAt)
      if let email { object.member("email") { $0.string(email) } }
      if let id { object.member("id") { $0.string(id) } }
      if let identityData { object.member("identity_data") { $0.value(.object(identityData)) } }
      if let identityId { object.member("identity_id") { $0.string(identityId) } }
      object.date("last_sign_in_at", lastSignInAt)
      object.member("provider") { $0.string(provider) }
      object.date("updated_at", updatedAt)
      if let userId { object.member("user_id") { $0.string(userId) } }
    }
  }
}
