import AccountStore
import GoTrue

/// An admin's change of an SSO provider (`adminSSOProvidersUpdate`): what differs is written in
/// one transaction, and the provider answered as GoTrue reads it back.
extension EmbeddedGoTrue {
  /// A provider as an update leaves it, and whether its domains were all removed (GoTrue then
  /// answers `[]` where a provider that never had any answers `null`).
  package typealias UpdatedSSOProvider = (provider: SSOProviderRecord, domainsRemoved: Bool)

  /// Changes provider `id` by `params` (`adminSSOProvidersUpdate`), with new `metadata` when
  /// some was given. Only what differs is written; a change of `name_id_format` alone is lost,
  /// as in GoTrue, which writes the SAML connection only with new metadata or a new mapping.
  package func updateSSOProvider(id: String, _ params: SSOProviderParams, metadata: [UInt8]?)
    throws(GoTrueFailure) -> UpdatedSSOProvider
  {
    let entityID = try metadata.map { bytes throws(GoTrueFailure) in try Self.entityID(of: bytes) }
    return try answer(spending: nil) { database, now throws(GoTrueAPIError) in
      var provider = try Self.load(id, database)
      let before = provider
      var writingSAML = false
      if let metadata, let entityID {
        guard provider.saml.entityID == entityID else {
          throw GoTrueAPIError(
            status: 400, code: .samlEntityIDMismatch,
            message:
              "SAML Metadata can be updated only if the EntityID matches for the provider; "
              + "expected '\(provider.saml.entityID)' but got '\(entityID)'")
        }
        if !params.metadataURL.isEmpty { provider.saml.metadataURL = params.metadataURL }
        provider.saml.metadataXML = String(decoding: metadata, as: UTF8.self)
        writingSAML = true
      }
      var kept: Set<String> = []
      var added: [String] = []
      for domain in params.domains ?? [] {
        if let owner = try database.ssoProviderID(domain: domain) {
          guard owner == provider.id else {
            throw GoTrueAPIError(
              status: 400, code: .ssoDomainAlreadyExists,
              message: "SSO domain '\(domain)' already assigned to another provider (\(owner))")
          }
          kept.insert(domain)
        } else {
          added.append(domain)
        }
      }
      let removed =
        params.domains == nil ? [] : provider.domains.filter { !kept.contains($0.domain) }
      if params.attributeMapping.keys != nil,
        !SAMLAttributeMapping(stored: provider.saml.attributeMapping).matches(
          params.attributeMapping)
      {
        provider.saml.attributeMapping = params.attributeMapping.json.jsonText
        writingSAML = true
      }
      provider.saml.nameIDFormat = Self.nonEmpty(params.nameIDFormat)
      if let resourceID = params.resourceID {
        provider.resourceID = resourceID.isEmpty ? nil : resourceID
      }
      if let disabled = params.disabled { provider.disabled = disabled }
      let modified =
        writingSAML || !added.isEmpty || !removed.isEmpty
        || provider.saml.nameIDFormat != before.saml.nameIDFormat
        || provider.resourceID != before.resourceID || provider.disabled != before.disabled
      guard modified else { return (before, false) }
      // GoTrue's constraints, checked in the order its transaction writes: the provider, the
      // domains removed then added; a breach is its 422 `conflict`.
      if let resourceID = provider.resourceID, resourceID != before.resourceID,
        let owner = try database.ssoProviderID(resourceIDIgnoringCase: resourceID),
        owner != provider.id
      {
        throw Self.conflict
      }
      if try !Self.domainsFit(added, database, removing: removed.map(\.domain)) {
        throw Self.conflict
      }
      provider.updatedAt = now
      if writingSAML { provider.saml.updatedAt = now }
      try database.updateSSOProvider(provider, writingSAML: writingSAML)
      try database.deleteSSODomains(ids: removed.map(\.id))
      try database.insertSSODomains(
        added.map {
          SSODomainRecord(id: random.uuidString(), domain: $0, createdAt: now, updatedAt: now)
        },
        providerID: provider.id)
      // GoTrue answers the connection and the domains as it reads them back.
      guard let stored = try database.ssoProvider(id: provider.id) else { throw Self.conflict }
      return (stored, !before.domains.isEmpty && stored.domains.isEmpty)
    }
  }
}
