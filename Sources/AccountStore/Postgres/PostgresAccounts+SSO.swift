/// SSO providers on PostgreSQL: GoTrue's `auth.sso_providers`, `auth.saml_providers` and
/// `auth.sso_domains`, written as GoTrue writes them (times as `timestamptz`, the attribute
/// mapping as `jsonb`) and read in their rows' order, as GoTrue's unordered queries read them.
extension PostgresConnection {
  func insertSSOProvider(_ provider: SSOProviderRecord) throws(AccountStoreError) {
    try query(
      """
      INSERT INTO auth.sso_providers (id, resource_id, created_at, updated_at, disabled)
      VALUES ($1::uuid, $2, authflow.ts($3), authflow.ts($4), $5::boolean)
      """, .text(provider.id), .optional(provider.resourceID), .integer(provider.createdAt),
      .integer(provider.updatedAt), Self.flag(provider.disabled))
    let saml = provider.saml
    try query(
      """
      INSERT INTO auth.saml_providers (id, sso_provider_id, entity_id, metadata_xml,
        metadata_url, attribute_mapping, created_at, updated_at, name_id_format)
      VALUES ($1::uuid, $2::uuid, $3, $4, $5, $6::jsonb, authflow.ts($7), authflow.ts($8), $9)
      """, .text(saml.id), .text(provider.id), .text(saml.entityID), .text(saml.metadataXML),
      .optional(saml.metadataURL), .optional(saml.attributeMapping), .integer(saml.createdAt),
      .integer(saml.updatedAt), .optional(saml.nameIDFormat))
    try insertSSODomains(provider.domains, providerID: provider.id)
  }

  func updateSSOProvider(_ provider: SSOProviderRecord, writingSAML: Bool)
    throws(AccountStoreError)
  {
    try query(
      """
      UPDATE auth.sso_providers SET resource_id = $1, disabled = $2::boolean,
        updated_at = authflow.ts($3)
      WHERE id = $4::uuid
      """, .optional(provider.resourceID), Self.flag(provider.disabled),
      .integer(provider.updatedAt), .text(provider.id))
    guard writingSAML else { return }
    let saml = provider.saml
    try query(
      """
      UPDATE auth.saml_providers SET entity_id = $1, metadata_xml = $2, metadata_url = $3,
        attribute_mapping = $4::jsonb, name_id_format = $5, updated_at = authflow.ts($6)
      WHERE id = $7::uuid
      """, .text(saml.entityID), .text(saml.metadataXML), .optional(saml.metadataURL),
      .optional(saml.attributeMapping), .optional(saml.nameIDFormat), .integer(saml.updatedAt),
      .text(saml.id))
  }

  func insertSSODomains(_ domains: [SSODomainRecord], providerID: String)
    throws(AccountStoreError)
  {
    for domain in domains {
      try query(
        """
        INSERT INTO auth.sso_domains (id, sso_provider_id, domain, created_at, updated_at)
        VALUES ($1::uuid, $2::uuid, $3, authflow.ts($4), authflow.ts($5))
        """, .text(domain.id), .text(providerID), .text(domain.domain),
        .integer(domain.createdAt), .integer(domain.updatedAt))
    }
  }

  func deleteSSODomains(ids: [String]) throws(AccountStoreError) {
    guard !ids.isEmpty else { return }
    try query(
      "DELETE FROM auth.sso_domains WHERE id = ANY($1::uuid[])", .text(PostgresArray.text(ids)))
  }

  func deleteSSOProvider(id: String) throws(AccountStoreError) {
    try query("DELETE FROM auth.sso_providers WHERE id = $1::uuid", .text(id))
  }

  func ssoProvider(id: String) throws(AccountStoreError) -> SSOProviderRecord? {
    try ssoProviders(where: "p.id = authflow.key($1)", [.text(id)]).first
  }

  func ssoProvider(resourceID: String) throws(AccountStoreError) -> SSOProviderRecord? {
    try ssoProviders(where: "p.resource_id = $1", [.text(resourceID)]).first
  }

  func ssoProviders(_ filter: SSOProviderFilter) throws(AccountStoreError)
    -> [SSOProviderRecord]
  {
    switch filter {
    case .all: try ssoProviders(where: "true", [])
    case .resourceID(let id): try ssoProviders(where: "p.resource_id = $1", [.text(id)])
    case .resourceIDPrefix(let prefix):
      try ssoProviders(where: "p.resource_id LIKE $1", [.text(prefix + "%")])
    }
  }

  func ssoProviderID(entityID: String) throws(AccountStoreError) -> String? {
    try first(
      "SELECT sso_provider_id::text FROM auth.saml_providers WHERE entity_id = $1",
      .text(entityID)
    ) { row throws(AccountStoreError) in try row.text(0) }
  }

  func ssoProviderID(domain: String, ignoringCase: Bool) throws(AccountStoreError) -> String? {
    let condition = ignoringCase ? "lower(domain) = lower($1)" : "domain = $1"
    return try first(
      "SELECT sso_provider_id::text FROM auth.sso_domains WHERE \(condition) ORDER BY ctid",
      .text(domain)
    ) { row throws(AccountStoreError) in try row.text(0) }
  }

  func ssoProviderID(resourceIDIgnoringCase resourceID: String) throws(AccountStoreError)
    -> String?
  {
    try first(
      "SELECT id::text FROM auth.sso_providers WHERE lower(resource_id) = lower($1)",
      .text(resourceID)
    ) { row throws(AccountStoreError) in try row.text(0) }
  }

  private func ssoProviders(where condition: String, _ values: [PostgresValue])
    throws(AccountStoreError) -> [SSOProviderRecord]
  {
    var providers = try rows(
      """
      SELECT p.id::text, p.resource_id, p.disabled, coalesce(authflow.ms(p.created_at), 0),
        coalesce(authflow.ms(p.updated_at), 0), coalesce(s.id::text, ''),
        coalesce(s.entity_id, ''), coalesce(s.metadata_xml, ''), s.metadata_url,
        s.attribute_mapping::text, s.name_id_format, coalesce(authflow.ms(s.created_at), 0),
        coalesce(authflow.ms(s.updated_at), 0)
      FROM auth.sso_providers p LEFT JOIN auth.saml_providers s ON s.sso_provider_id = p.id
      WHERE \(condition) ORDER BY p.ctid
      """, values
    ) { row throws(AccountStoreError) in
      SSOProviderRecord(
        id: try row.text(0), resourceID: try row.optionalText(1), disabled: try row.optionalBool(2),
        createdAt: try row.int64(3), updatedAt: try row.int64(4),
        saml: SAMLProviderRecord(
          id: try row.text(5), entityID: try row.text(6), metadataXML: try row.text(7),
          metadataURL: try row.optionalText(8), attributeMapping: try row.optionalText(9),
          nameIDFormat: try row.optionalText(10), createdAt: try row.int64(11),
          updatedAt: try row.int64(12)),
        domains: [])
    }
    for index in providers.indices {
      providers[index].domains = try rows(
        """
        SELECT id::text, domain, coalesce(authflow.ms(created_at), 0),
          coalesce(authflow.ms(updated_at), 0)
        FROM auth.sso_domains WHERE sso_provider_id = $1::uuid ORDER BY ctid
        """, .text(providers[index].id)
      ) { row throws(AccountStoreError) in
        SSODomainRecord(
          id: try row.text(0), domain: try row.text(1), createdAt: try row.int64(2),
          updatedAt: try row.int64(3))
      }
    }
    return providers
  }

  private static func flag(_ value: Bool?) -> PostgresValue {
    value.map { .bool($0) } ?? .null
  }
}
