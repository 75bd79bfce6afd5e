/// A row of `oauth_consents`: the scopes a user granted a client (GoTrue's
/// `models.OAuthServerConsent`), one row per user and client, revoked but kept when the user
/// takes the grant back.
package struct OAuthConsentRecord: Sendable, Equatable {
  package var id: String
  package var userID: String
  package var clientID: String
  /// The scopes, separated by spaces.
  package var scopes: String
  /// Unix milliseconds.
  package var grantedAt: Int64
  package var revokedAt: Int64?

  /// A consent of its parts.
  package init(
    id: String, userID: String, clientID: String, scopes: String, grantedAt: Int64,
    revokedAt: Int64?
  ) {
    self.id = id
    self.userID = userID
    self.clientID = clientID
    self.scopes = scopes
    self.grantedAt = grantedAt
    self.revokedAt = revokedAt
  }

  static let columns = "id, user_id, client_id, scopes, granted_at, revoked_at"

  init(_ row: SQLiteStatement) {
    self.init(
      id: row.text(0), userID: row.text(1), clientID: row.text(2), scopes: row.text(3),
      grantedAt: row.int(4), revokedAt: row.optionalInt(5))
  }
}

extension Accounts {
  /// User `userID`'s consent for client `clientID`, revoked or not.
  package func oauthConsent(user userID: String, client clientID: String) throws(Failure)
    -> OAuthConsentRecord?
  {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.oauthConsent(user: userID, client: clientID)
      }
    }
    return try first(
      "SELECT \(OAuthConsentRecord.columns) FROM oauth_consents WHERE user_id = ? AND client_id = ?",
      .text(userID), .text(clientID), row: { OAuthConsentRecord($0) })
  }

  /// User `userID`'s consents not revoked, the latest granted first.
  package func oauthConsents(ofUser userID: String) throws(Failure) -> [OAuthConsentRecord] {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.oauthConsents(ofUser: userID)
      }
    }
    return try query(
      """
      SELECT \(OAuthConsentRecord.columns) FROM oauth_consents
      WHERE user_id = ? AND revoked_at IS NULL ORDER BY granted_at DESC, rowid DESC
      """, .text(userID), row: { OAuthConsentRecord($0) })
  }

  /// Adds `consent`, or writes its scopes, grant time and revocation over the row of its user
  /// and client.
  package func saveOAuthConsent(_ consent: OAuthConsentRecord) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.saveOAuthConsent(consent)
      }
    }
    try run(
      """
      INSERT INTO oauth_consents (id, user_id, client_id, scopes, granted_at, revoked_at)
      VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (user_id, client_id) DO UPDATE SET scopes = excluded.scopes,
        granted_at = excluded.granted_at, revoked_at = excluded.revoked_at
      """, .text(consent.id), .text(consent.userID), .text(consent.clientID),
      .text(consent.scopes), .integer(consent.grantedAt), .optional(consent.revokedAt))
  }

  /// Ends user `userID`'s sessions of OAuth client `clientID` (GoTrue's
  /// `RevokeOAuthSessions`), with their refresh tokens.
  package func deleteSessions(ofUser userID: String, oauthClient clientID: String)
    throws(Failure)
  {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.deleteSessions(ofUser: userID, oauthClient: clientID)
      }
    }
    try run(
      "DELETE FROM sessions WHERE user_id = ? AND oauth_client_id = ?", .text(userID),
      .text(clientID))
  }

  /// Makes session `id` one of OAuth client `clientID`, granted `scopes` (GoTrue's
  /// `Session.ApplyGrantParams`), so its tokens carry both.
  package func setOAuthClient(session id: String, client clientID: String, scopes: String)
    throws(Failure)
  {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.setOAuthClient(session: id, client: clientID, scopes: scopes)
      }
    }
    try run(
      "UPDATE sessions SET oauth_client_id = ?, scopes = ? WHERE id = ?", .text(clientID),
      .text(scopes), .text(id))
  }
}
