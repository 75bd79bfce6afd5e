/// The OAuth 2.1 server on PostgreSQL: GoTrue's `auth.oauth_clients`, `auth.oauth_authorizations`
/// and `auth.oauth_consents`, written as GoTrue writes them (a public client's secret hash empty,
/// times as `timestamptz`), but for the authorization code, kept as its hash.
extension PostgresConnection {
  private static let clientColumns = """
    id::text, coalesce(client_secret_hash, ''), registration_type::text, client_type::text,
    token_endpoint_auth_method, redirect_uris, grant_types, client_name, client_uri, logo_uri,
    coalesce(authflow.ms(created_at), 0), coalesce(authflow.ms(updated_at), 0),
    authflow.ms(deleted_at)
    """

  private static func client(_ row: PostgresRow) throws(AccountStoreError) -> OAuthClientRecord {
    OAuthClientRecord(
      id: try row.text(0), secretHash: try row.text(1), registrationType: try row.text(2),
      clientType: try row.text(3), tokenEndpointAuthMethod: try row.text(4),
      redirectURIs: try row.text(5), grantTypes: try row.text(6), name: try row.optionalText(7),
      uri: try row.optionalText(8), logoURI: try row.optionalText(9), createdAt: try row.int64(10),
      updatedAt: try row.int64(11), deletedAt: try row.optionalInt64(12))
  }

  func insertOAuthClient(_ client: OAuthClientRecord) throws(AccountStoreError) {
    try query(
      """
      INSERT INTO auth.oauth_clients (id, client_secret_hash, registration_type, redirect_uris,
        grant_types, client_name, client_uri, logo_uri, created_at, updated_at, deleted_at,
        client_type, token_endpoint_auth_method)
      VALUES ($1::uuid, $2, $3::auth.oauth_registration_type, $4, $5, $6, $7, $8,
        authflow.ts($9), authflow.ts($10), authflow.ts($11), $12::auth.oauth_client_type, $13)
      """, .text(client.id), .text(client.secretHash), .text(client.registrationType),
      .text(client.redirectURIs), .text(client.grantTypes), .optional(client.name),
      .optional(client.uri), .optional(client.logoURI), .integer(client.createdAt),
      .integer(client.updatedAt), .optional(client.deletedAt), .text(client.clientType),
      .text(client.tokenEndpointAuthMethod))
  }

  func updateOAuthClient(_ client: OAuthClientRecord) throws(AccountStoreError) {
    try query(
      """
      UPDATE auth.oauth_clients SET client_secret_hash = $1, redirect_uris = $2,
        grant_types = $3, client_name = $4, client_uri = $5, logo_uri = $6,
        updated_at = authflow.ts($7), deleted_at = authflow.ts($8),
        token_endpoint_auth_method = $9
      WHERE id = $10::uuid
      """, .text(client.secretHash), .text(client.redirectURIs), .text(client.grantTypes),
      .optional(client.name), .optional(client.uri), .optional(client.logoURI),
      .integer(client.updatedAt), .optional(client.deletedAt),
      .text(client.tokenEndpointAuthMethod), .text(client.id))
  }

  func oauthClient(id: String) throws(AccountStoreError) -> OAuthClientRecord? {
    try first(
      """
      SELECT \(Self.clientColumns) FROM auth.oauth_clients
      WHERE id = authflow.key($1) AND deleted_at IS NULL
      """, .text(id), row: Self.client)
  }

  func oauthClients() throws(AccountStoreError) -> [OAuthClientRecord] {
    try rows(
      """
      SELECT \(Self.clientColumns) FROM auth.oauth_clients WHERE deleted_at IS NULL
      ORDER BY created_at DESC
      """, row: Self.client)
  }

  // MARK: Authorizations

  private static let authorizationColumns = """
    id::text, authorization_id, client_id::text, authflow.user_name(user_id), redirect_uri,
    scope, state, resource, code_challenge, code_challenge_method::text, nonce, status::text,
    authorization_code, coalesce(authflow.ms(created_at), 0),
    coalesce(authflow.ms(expires_at), 0), authflow.ms(approved_at)
    """

  private static func authorization(_ row: PostgresRow) throws(AccountStoreError)
    -> OAuthAuthorizationRecord
  {
    OAuthAuthorizationRecord(
      id: try row.text(0), authorizationID: try row.text(1), clientID: try row.text(2),
      userID: try row.optionalText(3), redirectURI: try row.text(4), scope: try row.text(5),
      state: try row.optionalText(6), resource: try row.optionalText(7),
      codeChallenge: try row.optionalText(8), codeChallengeMethod: try row.optionalText(9),
      nonce: try row.optionalText(10), status: try row.text(11), codeHash: try row.optionalText(12),
      createdAt: try row.int64(13), expiresAt: try row.int64(14),
      approvedAt: try row.optionalInt64(15))
  }

  func insertOAuthAuthorization(_ row: OAuthAuthorizationRecord) throws(AccountStoreError) {
    try query(
      """
      INSERT INTO auth.oauth_authorizations (id, authorization_id, client_id, user_id,
        redirect_uri, scope, state, resource, code_challenge, code_challenge_method, nonce,
        response_type, status, authorization_code, created_at, expires_at, approved_at)
      VALUES ($1::uuid, $2, $3::uuid, authflow.user_key($4), $5, $6, $7, $8, $9,
        $10::auth.code_challenge_method, $11, 'code', $12::auth.oauth_authorization_status, $13,
        authflow.ts($14), authflow.ts($15), authflow.ts($16))
      """, .text(row.id), .text(row.authorizationID), .text(row.clientID),
      .optional(row.userID), .text(row.redirectURI), .text(row.scope), .optional(row.state),
      .optional(row.resource), .optional(row.codeChallenge), .optional(row.codeChallengeMethod),
      .optional(row.nonce), .text(row.status), .optional(row.codeHash), .integer(row.createdAt),
      .integer(row.expiresAt), .optional(row.approvedAt))
  }

  func updateOAuthAuthorization(_ row: OAuthAuthorizationRecord) throws(AccountStoreError) {
    try query(
      """
      UPDATE auth.oauth_authorizations SET user_id = authflow.user_key($1),
        status = $2::auth.oauth_authorization_status, authorization_code = $3,
        approved_at = authflow.ts($4)
      WHERE id = $5::uuid
      """, .optional(row.userID), .text(row.status), .optional(row.codeHash),
      .optional(row.approvedAt), .text(row.id))
  }

  func oauthAuthorization(authorizationID: String) throws(AccountStoreError)
    -> OAuthAuthorizationRecord?
  {
    try first(
      """
      SELECT \(Self.authorizationColumns) FROM auth.oauth_authorizations
      WHERE authorization_id = $1 \(lock())
      """, .text(authorizationID), row: Self.authorization)
  }

  func oauthAuthorization(codeHash: String) throws(AccountStoreError) -> OAuthAuthorizationRecord? {
    try first(
      """
      SELECT \(Self.authorizationColumns) FROM auth.oauth_authorizations
      WHERE authorization_code = $1 AND status = 'approved' \(lock())
      """, .text(codeHash), row: Self.authorization)
  }

  func deleteOAuthAuthorization(id: String) throws(AccountStoreError) {
    try query("DELETE FROM auth.oauth_authorizations WHERE id = $1::uuid", .text(id))
  }

  // MARK: Consents

  private static let consentColumns = """
    id::text, authflow.user_name(user_id), client_id::text, scopes,
    coalesce(authflow.ms(granted_at), 0), authflow.ms(revoked_at)
    """

  private static func consent(_ row: PostgresRow) throws(AccountStoreError) -> OAuthConsentRecord {
    OAuthConsentRecord(
      id: try row.text(0), userID: try row.text(1), clientID: try row.text(2),
      scopes: try row.text(3), grantedAt: try row.int64(4), revokedAt: try row.optionalInt64(5))
  }

  func oauthConsent(user userID: String, client clientID: String) throws(AccountStoreError)
    -> OAuthConsentRecord?
  {
    try first(
      """
      SELECT \(Self.consentColumns) FROM auth.oauth_consents
      WHERE user_id = authflow.user_key($1) AND client_id = authflow.key($2)
      """, .text(userID), .text(clientID), row: Self.consent)
  }

  func oauthConsents(ofUser userID: String) throws(AccountStoreError) -> [OAuthConsentRecord] {
    try rows(
      """
      SELECT \(Self.consentColumns) FROM auth.oauth_consents
      WHERE user_id = authflow.user_key($1) AND revoked_at IS NULL ORDER BY granted_at DESC
      """, .text(userID), row: Self.consent)
  }

  func saveOAuthConsent(_ consent: OAuthConsentRecord) throws(AccountStoreError) {
    try query(
      """
      INSERT INTO auth.oauth_consents (id, user_id, client_id, scopes, granted_at, revoked_at)
      VALUES ($1::uuid, authflow.user_key($2), $3::uuid, $4, authflow.ts($5), authflow.ts($6))
      ON CONFLICT (user_id, client_id) DO UPDATE SET scopes = excluded.scopes,
        granted_at = excluded.granted_at, revoked_at = excluded.revoked_at
      """, .text(consent.id), .text(consent.userID), .text(consent.clientID),
      .text(consent.scopes), .integer(consent.grantedAt), .optional(consent.revokedAt))
  }

  func deleteSessions(ofUser userID: String, oauthClient clientID: String)
    throws(AccountStoreError)
  {
    try query(
      """
      DELETE FROM auth.sessions WHERE user_id = authflow.user_key($1)
        AND oauth_client_id = authflow.key($2)
      """, .text(userID), .text(clientID))
  }

  func setOAuthClient(session id: String, client clientID: String, scopes: String)
    throws(AccountStoreError)
  {
    try query(
      "UPDATE auth.sessions SET oauth_client_id = $1::uuid, scopes = $2 WHERE id = $3::uuid",
      .text(clientID), .text(scopes), .text(id))
  }
}
