/// A row of `sso_providers` with what GoTrue loads with it (`models.SSOProvider`, eagerly): its
/// SAML connection (`saml_providers`) and its email domains (`sso_domains`).
package struct SSOProviderRecord: Sendable, Equatable {
  /// The provider's UUID.
  package var id: String
  /// The admin's own name for it (`resource_id`), unique ignoring case.
  package var resourceID: String?
  /// Whether it is switched off; `nil` when never said.
  package var disabled: Bool?
  /// Unix milliseconds.
  package var createdAt: Int64
  package var updatedAt: Int64
  /// Its SAML connection.
  package var saml: SAMLProviderRecord
  /// Its email domains, in the order they were added.
  package var domains: [SSODomainRecord]

  /// A provider of its parts.
  package init(
    id: String, resourceID: String?, disabled: Bool?, createdAt: Int64, updatedAt: Int64,
    saml: SAMLProviderRecord, domains: [SSODomainRecord]
  ) {
    self.id = id
    self.resourceID = resourceID
    self.disabled = disabled
    self.createdAt = createdAt
    self.updatedAt = updatedAt
    self.saml = saml
    self.domains = domains
  }
}

/// A row of `saml_providers`: a SAML identity provider's metadata and how its assertions map
/// to a user.
package struct SAMLProviderRecord: Sendable, Equatable {
  /// The row's UUID.
  package var id: String
  /// The metadata's `entityID`, unique.
  package var entityID: String
  /// The metadata as it was given or fetched.
  package var metadataXML: String
  /// Where it was fetched from, when it was.
  package var metadataURL: String?
  /// The attribute mapping as GoTrue writes it (`{"keys":{…}}` or `{}`), JSON text.
  package var attributeMapping: String?
  /// The `NameIDFormat` asked of the provider, when one is.
  package var nameIDFormat: String?
  /// Unix milliseconds.
  package var createdAt: Int64
  package var updatedAt: Int64

  /// A connection of its parts.
  package init(
    id: String, entityID: String, metadataXML: String, metadataURL: String?,
    attributeMapping: String?, nameIDFormat: String?, createdAt: Int64, updatedAt: Int64
  ) {
    self.id = id
    self.entityID = entityID
    self.metadataXML = metadataXML
    self.metadataURL = metadataURL
    self.attributeMapping = attributeMapping
    self.nameIDFormat = nameIDFormat
    self.createdAt = createdAt
    self.updatedAt = updatedAt
  }
}

/// A row of `sso_domains`: an email domain whose users sign in with a provider.
package struct SSODomainRecord: Sendable, Equatable {
  /// The row's UUID.
  package var id: String
  /// The domain as given, unique ignoring case.
  package var domain: String
  /// Unix milliseconds.
  package var createdAt: Int64
  package var updatedAt: Int64

  /// A domain of its parts.
  package init(id: String, domain: String, createdAt: Int64, updatedAt: Int64) {
    self.id = id
    self.domain = domain
    self.createdAt = createdAt
    self.updatedAt = updatedAt
  }
}

/// Which providers a list holds (GoTrue's `FindAllSSOProvidersByFilter`).
package enum SSOProviderFilter: Sendable, Equatable {
  /// Every provider.
  case all
  /// Those whose `resource_id` is this, exactly.
  case resourceID(String)
  /// Those whose `resource_id` is `LIKE` this followed by `%` (its `%` and `_` wildcards too).
  case resourceIDPrefix(String)
}
