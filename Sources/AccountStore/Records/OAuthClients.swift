/// A row of `oauth_clients`: an application registered with the OAuth 2.1 server (GoTrue's
/// `models.OAuthServerClient`), its secret kept only as a hash.
package struct OAuthClientRecord: Sendable, Equatable {
  /// The client's UUID, its `client_id`.
  package var id: String
  /// The secret's SHA-256 in unpadded base64url, as GoTrue keeps it; empty for a public client.
  package var secretHash: String
  /// `manual` (by an admin) or `dynamic` (RFC 7591 registration).
  package var registrationType: String
  /// `public` or `confidential`.
  package var clientType: String
  /// `none`, `client_secret_basic` or `client_secret_post`.
  package var tokenEndpointAuthMethod: String
  /// The redirect URIs, joined by commas as GoTrue stores them.
  package var redirectURIs: String
  /// The grant types, joined by commas.
  package var grantTypes: String
  package var name: String?
  package var uri: String?
  package var logoURI: String?
  /// Unix milliseconds.
  package var createdAt: Int64
  package var updatedAt: Int64
  /// When it was deleted (GoTrue deletes clients softly); deleted clients are never found.
  package var deletedAt: Int64?

  /// A client of its parts.
  package init(
    id: String, secretHash: String, registrationType: String, clientType: String,
    tokenEndpointAuthMethod: String, redirectURIs: String, grantTypes: String, name: String?,
    uri: String?, logoURI: String?, createdAt: Int64, updatedAt: Int64, deletedAt: Int64? = nil
  ) {
    self.id = id
    self.secretHash = secretHash
    self.registrationType = registrationType
    self.clientType = clientType
    self.tokenEndpointAuthMethod = tokenEndpointAuthMethod
    self.redirectURIs = redirectURIs
    self.grantTypes = grantTypes
    self.name = name
    self.uri = uri
    self.logoURI = logoURI
    self.createdAt = createdAt
    self.updatedAt = updatedAt
    self.deletedAt = deletedAt
  }

  static let columns = """
    id, coalesce(client_secret_hash, ''), registration_type, client_type,
    token_endpoint_auth_method, redirect_uris, grant_types, client_name, client_uri, logo_uri,
    created_at, updated_at, deleted_at
    """

  init(_ row: SQLiteStatement) {
    self.init(
      id: row.text(0), secretHash: row.text(1), registrationType: row.text(2),
      clientType: row.text(3), tokenEndpointAuthMethod: row.text(4), redirectURIs: row.text(5),
      grantTypes: row.text(6), name: row.optionalText(7), uri: row.optionalText(8),
      logoURI: row.optionalText(9), createdAt: row.int(10), updatedAt: row.int(11),
      deletedAt: row.optionalInt(12))
  }
}

extension Accounts {
  /// Adds `client`.
  package func insertOAuthClient(_ client: OAuthClientRecord) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in try postgres.insertOAuthClient(client)
      }
    }
    try run(
      """
      INSERT INTO oauth_clients (id, client_secret_hash, registration_type, redirect_uris,
        grant_types, client_name, client_uri, logo_uri, created_at, updated_at, deleted_at,
        client_type, token_endpoint_auth_method)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """, .text(client.id), .text(client.secretHash), .text(client.registrationType),
      .text(client.redirectURIs), .text(client.grantTypes), .optional(client.name),
      .optional(client.uri), .optional(client.logoURI), .integer(client.createdAt),
      .integer(client.updatedAt), .optional(client.deletedAt), .text(client.clientType),
      .text(client.tokenEndpointAuthMethod))
  }

  /// Writes every column of `client` but its id and creation.
  package func updateOAuthClient(_ client: OAuthClientRecord) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in try postgres.updateOAuthClient(client)
      }
    }
    try run(
      """
      UPDATE oauth_clients SET client_secret_hash = ?, redirect_uris = ?, grant_types = ?,
        client_name = ?, client_uri = ?, logo_uri = ?, updated_at = ?, deleted_at = ?,
        token_endpoint_auth_method = ?
      WHERE id = ?
      """, .text(client.secretHash), .text(client.redirectURIs), .text(client.grantTypes),
      .optional(client.name), .optional(client.uri), .optional(client.logoURI),
      .integer(client.updatedAt), .optional(client.deletedAt),
      .text(client.tokenEndpointAuthMethod), .text(client.id))
  }

  /// Client `id`, unless there is none or it was deleted.
  package func oauthClient(id: String) throws(Failure) -> OAuthClientRecord? {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in try postgres.oauthClient(id: id) }
    }
    return try first(
      "SELECT \(OAuthClientRecord.columns) FROM oauth_clients WHERE id = ? AND deleted_at IS NULL",
      .text(id.lowercased()), row: { OAuthClientRecord($0) })
  }

  /// The clients not deleted, newest first.
  package func oauthClients() throws(Failure) -> [OAuthClientRecord] {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in try postgres.oauthClients() }
    }
    return try query(
      """
      SELECT \(OAuthClientRecord.columns) FROM oauth_clients WHERE deleted_at IS NULL
      ORDER BY created_at DESC, rowid DESC
      """, row: { OAuthClientRecord($0) })
  }
}
