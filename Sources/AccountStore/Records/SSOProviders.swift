/// The SSO providers' operations (``SSOProviderRecord``): GoTrue's `models/sso.go` finders, and
/// the writes of its admin API.
extension Accounts {
  /// Adds `provider` with its SAML connection and domains.
  package func insertSSOProvider(_ provider: SSOProviderRecord) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.insertSSOProvider(provider)
      }
    }
    try run(
      """
      INSERT INTO sso_providers (id, resource_id, created_at, updated_at, disabled)
      VALUES (?, ?, ?, ?, ?)
      """, .text(provider.id), .optional(provider.resourceID), .integer(provider.createdAt),
      .integer(provider.updatedAt), .optional(provider.disabled.map { $0 ? 1 : 0 }))
    let saml = provider.saml
    try run(
      """
      INSERT INTO saml_providers (id, sso_provider_id, entity_id, metadata_xml, metadata_url,
        attribute_mapping, created_at, updated_at, name_id_format)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
      """, .text(saml.id), .text(provider.id), .text(saml.entityID), .text(saml.metadataXML),
      .optional(saml.metadataURL), .optional(saml.attributeMapping), .integer(saml.createdAt),
      .integer(saml.updatedAt), .optional(saml.nameIDFormat))
    try insertSSODomains(provider.domains, providerID: provider.id)
  }

  /// Writes `provider`'s own columns, and with `writingSAML` its SAML connection's; its domains
  /// change only through ``insertSSODomains(_:providerID:)`` and ``deleteSSODomains(ids:)``.
  package func updateSSOProvider(_ provider: SSOProviderRecord, writingSAML: Bool)
    throws(Failure)
  {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.updateSSOProvider(provider, writingSAML: writingSAML)
      }
    }
    try run(
      "UPDATE sso_providers SET resource_id = ?, disabled = ?, updated_at = ? WHERE id = ?",
      .optional(provider.resourceID), .optional(provider.disabled.map { $0 ? 1 : 0 }),
      .integer(provider.updatedAt), .text(provider.id))
    guard writingSAML else { return }
    let saml = provider.saml
    try run(
      """
      UPDATE saml_providers SET entity_id = ?, metadata_xml = ?, metadata_url = ?,
        attribute_mapping = ?, name_id_format = ?, updated_at = ?
      WHERE id = ?
      """, .text(saml.entityID), .text(saml.metadataXML), .optional(saml.metadataURL),
      .optional(saml.attributeMapping), .optional(saml.nameIDFormat), .integer(saml.updatedAt),
      .text(saml.id))
  }

  /// Adds `domains` to provider `providerID`.
  package func insertSSODomains(_ domains: [SSODomainRecord], providerID: String)
    throws(Failure)
  {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.insertSSODomains(domains, providerID: providerID)
      }
    }
    for domain in domains {
      try run(
        """
        INSERT INTO sso_domains (id, sso_provider_id, domain, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?)
        """, .text(domain.id), .text(providerID), .text(domain.domain),
        .integer(domain.createdAt), .integer(domain.updatedAt))
    }
  }

  /// Removes the domains of ids `ids`.
  package func deleteSSODomains(ids: [String]) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.deleteSSODomains(ids: ids)
      }
    }
    for id in ids { try run("DELETE FROM sso_domains WHERE id = ?", .text(id)) }
  }

  /// Removes provider `id`, its SAML connection and its domains.
  package func deleteSSOProvider(id: String) throws(Failure) {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in try postgres.deleteSSOProvider(id: id)
      }
    }
    try run("DELETE FROM sso_providers WHERE id = ?", .text(id))
  }

  /// Provider `id` (a canonical UUID), if there is one.
  package func ssoProvider(id: String) throws(Failure) -> SSOProviderRecord? {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in try postgres.ssoProvider(id: id) }
    }
    return try ssoProviders(where: "p.id = ?", [.text(id)]).first
  }

  /// The provider whose `resource_id` is `resourceID`, exactly.
  package func ssoProvider(resourceID: String) throws(Failure) -> SSOProviderRecord? {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.ssoProvider(resourceID: resourceID)
      }
    }
    return try ssoProviders(where: "p.resource_id = ?", [.text(resourceID)]).first
  }

  /// The providers `filter` asks for, in the order they were made.
  package func ssoProviders(_ filter: SSOProviderFilter) throws(Failure) -> [SSOProviderRecord] {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in try postgres.ssoProviders(filter) }
    }
    switch filter {
    case .all: return try ssoProviders(where: "1", [])
    case .resourceID(let id): return try ssoProviders(where: "p.resource_id = ?", [.text(id)])
    case .resourceIDPrefix(let prefix):
      // PostgreSQL's LIKE minds case where SQLite's does not: the same pattern as a GLOB.
      return try ssoProviders(
        where: "p.resource_id GLOB ?", [.text(SQLPattern.glob(like: prefix + "%"))])
    }
  }

  /// The provider whose SAML connection has entity id `entityID`, exactly.
  package func ssoProviderID(entityID: String) throws(Failure) -> String? {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.ssoProviderID(entityID: entityID)
      }
    }
    return try first(
      "SELECT sso_provider_id FROM saml_providers WHERE entity_id = ?", .text(entityID)
    ) { $0.text(0) }
  }

  /// The provider domain `domain` belongs to: written exactly so, or with `ignoringCase`, as
  /// the domains' unique index compares them.
  package func ssoProviderID(domain: String, ignoringCase: Bool = false) throws(Failure)
    -> String?
  {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.ssoProviderID(domain: domain, ignoringCase: ignoringCase)
      }
    }
    let condition = ignoringCase ? "lower(domain) = lower(?)" : "domain = ?"
    return try first(
      "SELECT sso_provider_id FROM sso_domains WHERE \(condition) ORDER BY rowid",
      .text(domain)
    ) { $0.text(0) }
  }

  /// The provider whose `resource_id` is `resourceID` ignoring case, as its unique index
  /// compares them.
  package func ssoProviderID(resourceIDIgnoringCase resourceID: String) throws(Failure)
    -> String?
  {
    if let postgres {
      return try onPostgres { () throws(AccountStoreError) in
        try postgres.ssoProviderID(resourceIDIgnoringCase: resourceID)
      }
    }
    return try first(
      "SELECT id FROM sso_providers WHERE lower(resource_id) = lower(?)", .text(resourceID)
    ) { $0.text(0) }
  }

  private func ssoProviders(where condition: String, _ values: [SQLiteValue]) throws(Failure)
    -> [SSOProviderRecord]
  {
    var providers = try query(
      """
      SELECT p.id, p.resource_id, p.disabled, coalesce(p.created_at, 0),
        coalesce(p.updated_at, 0), coalesce(s.id, ''), coalesce(s.entity_id, ''),
        coalesce(s.metadata_xml, ''), s.metadata_url, s.attribute_mapping, s.name_id_format,
        coalesce(s.created_at, 0), coalesce(s.updated_at, 0)
      FROM sso_providers p LEFT JOIN saml_providers s ON s.sso_provider_id = p.id
      WHERE \(condition) ORDER BY p.rowid
      """, values
    ) { row in
      SSOProviderRecord(
        id: row.text(0), resourceID: row.optionalText(1),
        disabled: row.optionalInt(2).map { $0 != 0 },
        createdAt: row.int(3), updatedAt: row.int(4),
        saml: SAMLProviderRecord(
          id: row.text(5), entityID: row.text(6), metadataXML: row.text(7),
          metadataURL: row.optionalText(8), attributeMapping: row.optionalText(9),
          nameIDFormat: row.optionalText(10), createdAt: row.int(11), updatedAt: row.int(12)),
        domains: [])
    }
    for index in providers.indices {
      providers[index].domains = try query(
        """
        SELECT id, domain, coalesce(created_at, 0), coalesce(updated_at, 0) FROM sso_domains
        WHERE sso_provider_id = ? ORDER BY rowid
        """, .text(providers[index].id)
      ) {
        SSODomainRecord(
          id: $0.text(0), domain: $0.text(1), createdAt: $0.int(2), updatedAt: $0.int(3))
      }
    }
    return providers
  }
}
