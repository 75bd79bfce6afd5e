import GoTrue

/// A user's identity at a provider other than email, phone or a wallet (a Firebase import's
/// `google.com`, …), as GoTrue keeps one in `auth.identities`: the provider, the user's id
/// there (unique per provider) and what the provider said about the user.
package struct LinkedIdentity: Equatable, Sendable {
  /// The identity's own id (a UUID).
  package var id: String
  /// The provider, as the caller names it (`google.com`).
  package var provider: String
  /// The user's id at the provider (Firebase's `rawId`).
  package var providerID: String
  /// What the provider says about the user (`sub`, `email`, `full_name`, `avatar_url`, …).
  package var data: [String: JSONValue]
  /// When it was linked (Unix milliseconds).
  package var createdAt: Int64

  /// An identity with the given parts.
  package init(
    id: String, provider: String, providerID: String, data: [String: JSONValue], createdAt: Int64
  ) {
    self.id = id
    self.provider = provider
    self.providerID = providerID
    self.data = data
    self.createdAt = createdAt
  }
}

extension Accounts {
  /// User `userID`'s linked identities, oldest first.
  package func linkedIdentities(ofUser userID: String) throws(Failure) -> [LinkedIdentity] {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.linkedIdentities(ofUser: userID)
      }
    }
    return try query(
      """
      SELECT id, provider, provider_id, identity_data, created_at FROM linked_identities
      WHERE user_id = ? ORDER BY created_at, rowid
      """, .text(userID)
    ) { row in
      LinkedIdentity(
        id: row.text(0), provider: row.text(1), providerID: row.text(2),
        data: UserRecord.decodeMetadata(row.text(3)), createdAt: row.int(4))
    }
  }

  /// Links `identity` to user `userID`; the provider's id must name no other user's.
  package func insertLinkedIdentity(_ identity: LinkedIdentity, ofUser userID: String)
    throws(Failure)
  {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.insertLinkedIdentity(identity, ofUser: userID)
      }
    }
    try run(
      """
      INSERT INTO linked_identities (id, user_id, provider, provider_id, identity_data,
        created_at, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?)
      """, .text(identity.id), .text(userID), .text(identity.provider),
      .text(identity.providerID), .text(UserRecord.encodeMetadata(identity.data)),
      .integer(identity.createdAt), .integer(identity.createdAt))
  }

  /// Unlinks user `userID`'s identities at `providers`.
  package func deleteLinkedIdentities(ofUser userID: String, providers: [String])
    throws(Failure)
  {
    for provider in providers {
      if let postgres {
        try onPostgres { () throws(AccountStoreError) in
          try postgres.deleteLinkedIdentities(ofUser: userID, provider: provider)
        }
      } else {
        try run(
          "DELETE FROM linked_identities WHERE user_id = ? AND provider = ?", .text(userID),
          .text(provider))
      }
    }
  }

  /// The id of the user whose identity at `provider` is `providerID`, if one is linked.
  package func userID(linkedProvider provider: String, providerID: String) throws(Failure)
    -> String?
  {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.userID(linkedProvider: provider, providerID: providerID)
      }
    }
    return try first(
      "SELECT user_id FROM linked_identities WHERE provider = ? AND provider_id = ?",
      .text(provider), .text(providerID)
    ) { row in row.text(0) }
  }
}

extension PostgresConnection {
  /// The providers whose identities ``LinkedIdentity`` does not cover: the ones the users row
  /// itself answers for.
  private static let ownProviders = "('email', 'phone', 'web3')"

  func linkedIdentities(ofUser userID: String) throws(AccountStoreError) -> [LinkedIdentity] {
    let rows = try query(
      """
      SELECT id::text, provider, provider_id, identity_data::text,
        coalesce(authflow.ms(created_at), 0)
      FROM auth.identities
      WHERE user_id = authflow.user_key($1) AND provider NOT IN \(Self.ownProviders)
      ORDER BY created_at, id
      """, .text(userID))
    var identities: [LinkedIdentity] = []
    for index in 0..<rows.count {
      let row = rows[index]
      identities.append(
        LinkedIdentity(
          id: try row.text(0), provider: try row.text(1), providerID: try row.text(2),
          data: UserRecord.decodeMetadata(try row.text(3)), createdAt: try row.int64(4)))
    }
    return identities
  }

  func insertLinkedIdentity(_ identity: LinkedIdentity, ofUser userID: String)
    throws(AccountStoreError)
  {
    try query(
      """
      INSERT INTO auth.identities (id, provider_id, user_id, identity_data, provider,
        created_at, updated_at)
      SELECT $1::uuid, $2, key, $4::jsonb, $5, authflow.ts($6), authflow.ts($6)
      FROM authflow.user_key($3) AS key
      """, .text(identity.id), .text(identity.providerID), .text(userID),
      .text(UserRecord.encodeMetadata(identity.data)), .text(identity.provider),
      .integer(identity.createdAt))
  }

  func deleteLinkedIdentities(ofUser userID: String, provider: String) throws(AccountStoreError) {
    try query(
      """
      DELETE FROM auth.identities WHERE user_id = authflow.user_key($1) AND provider = $2
        AND provider NOT IN \(Self.ownProviders)
      """, .text(userID), .text(provider))
  }

  func userID(linkedProvider provider: String, providerID: String) throws(AccountStoreError)
    -> String?
  {
    guard !provider.utf8.contains(0), !providerID.utf8.contains(0) else { return nil }
    return try first(
      """
      SELECT authflow.user_name(user_id) FROM auth.identities
      WHERE provider = $1 AND provider_id = $2 AND provider NOT IN \(Self.ownProviders)
      """, .text(provider), .text(providerID)
    ) { row throws(AccountStoreError) in try row.text(0) }
  }
}
