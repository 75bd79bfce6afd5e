/// A row of `oauth_authorizations`: one `GET /oauth/authorize`, waiting for its user's consent
/// and then for its code's exchange (GoTrue's `models.OAuthServerAuthorization`). The code is
/// kept as its hash only.
package struct OAuthAuthorizationRecord: Sendable, Equatable {
  /// The row's UUID.
  package var id: String
  /// The random id the consent page is given (`?authorization_id=`).
  package var authorizationID: String
  package var clientID: String
  /// The user, once one signed in looked at it.
  package var userID: String?
  package var redirectURI: String
  /// The scopes, separated by spaces.
  package var scope: String
  package var state: String?
  package var resource: String?
  package var codeChallenge: String?
  /// `s256` or `plain`, lowercase as GoTrue stores it.
  package var codeChallengeMethod: String?
  package var nonce: String?
  /// `pending`, `approved`, `denied` or `expired`.
  package var status: String
  /// The hash of its code, once approved.
  package var codeHash: String?
  /// Unix milliseconds.
  package var createdAt: Int64
  package var expiresAt: Int64
  package var approvedAt: Int64?

  /// An authorization of its parts.
  package init(
    id: String, authorizationID: String, clientID: String, userID: String?, redirectURI: String,
    scope: String, state: String?, resource: String?, codeChallenge: String?,
    codeChallengeMethod: String?, nonce: String?, status: String, codeHash: String?,
    createdAt: Int64, expiresAt: Int64, approvedAt: Int64?
  ) {
    self.id = id
    self.authorizationID = authorizationID
    self.clientID = clientID
    self.userID = userID
    self.redirectURI = redirectURI
    self.scope = scope
    self.state = state
    self.resource = resource
    self.codeChallenge = codeChallenge
    self.codeChallengeMethod = codeChallengeMethod
    self.nonce = nonce
    self.status = status
    self.codeHash = codeHash
    self.createdAt = createdAt
    self.expiresAt = expiresAt
    self.approvedAt = approvedAt
  }

  static let columns = """
    id, authorization_id, client_id, user_id, redirect_uri, scope, state, resource,
    code_challenge, code_challenge_method, nonce, status, authorization_code, created_at,
    expires_at, approved_at
    """

  init(_ row: SQLiteStatement) {
    self.init(
      id: row.text(0), authorizationID: row.text(1), clientID: row.text(2),
      userID: row.optionalText(3), redirectURI: row.text(4), scope: row.text(5),
      state: row.optionalText(6), resource: row.optionalText(7),
      codeChallenge: row.optionalText(8), codeChallengeMethod: row.optionalText(9),
      nonce: row.optionalText(10), status: row.text(11), codeHash: row.optionalText(12),
      createdAt: row.int(13), expiresAt: row.int(14), approvedAt: row.optionalInt(15))
  }
}

extension Accounts {
  /// Adds `authorization`.
  package func insertOAuthAuthorization(_ authorization: OAuthAuthorizationRecord)
    throws(Failure)
  {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.insertOAuthAuthorization(authorization)
      }
    }
    let row = authorization
    try run(
      """
      INSERT INTO oauth_authorizations (id, authorization_id, client_id, user_id, redirect_uri,
        scope, state, resource, code_challenge, code_challenge_method, nonce, status,
        authorization_code, created_at, expires_at, approved_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """, .text(row.id), .text(row.authorizationID), .text(row.clientID), .optional(row.userID),
      .text(row.redirectURI), .text(row.scope), .optional(row.state), .optional(row.resource),
      .optional(row.codeChallenge), .optional(row.codeChallengeMethod), .optional(row.nonce),
      .text(row.status), .optional(row.codeHash), .integer(row.createdAt),
      .integer(row.expiresAt), .optional(row.approvedAt))
  }

  /// Writes what an authorization's life changes: its user, status, code and approval.
  package func updateOAuthAuthorization(_ authorization: OAuthAuthorizationRecord)
    throws(Failure)
  {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.updateOAuthAuthorization(authorization)
      }
    }
    try run(
      """
      UPDATE oauth_authorizations SET user_id = ?, status = ?, authorization_code = ?,
        approved_at = ?
      WHERE id = ?
      """, .optional(authorization.userID), .text(authorization.status),
      .optional(authorization.codeHash), .optional(authorization.approvedAt),
      .text(authorization.id))
  }

  /// The authorization the consent page names.
  package func oauthAuthorization(authorizationID: String) throws(Failure)
    -> OAuthAuthorizationRecord?
  {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.oauthAuthorization(authorizationID: authorizationID)
      }
    }
    return try first(
      "SELECT \(OAuthAuthorizationRecord.columns) FROM oauth_authorizations WHERE authorization_id = ?",
      .text(authorizationID), row: { OAuthAuthorizationRecord($0) })
  }

  /// The approved authorization whose code hashes to `codeHash`.
  package func oauthAuthorization(codeHash: String) throws(Failure) -> OAuthAuthorizationRecord? {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.oauthAuthorization(codeHash: codeHash)
      }
    }
    return try first(
      """
      SELECT \(OAuthAuthorizationRecord.columns) FROM oauth_authorizations
      WHERE authorization_code = ? AND status = 'approved'
      """, .text(codeHash), row: { OAuthAuthorizationRecord($0) })
  }

  /// Removes authorization `id` (its code was exchanged: codes are single use).
  package func deleteOAuthAuthorization(id: String) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.deleteOAuthAuthorization(id: id)
      }
    }
    try run("DELETE FROM oauth_authorizations WHERE id = ?", .text(id))
  }
}
