import AccountStore
import GoTrue

/// GoTrue's admin API for SSO identity providers (`api/ssoadmin.go`), which it serves whether
/// SAML sign-in is on or not: providers made from SAML metadata, listed, changed and deleted.
/// The metadata comes in as bytes (given, or fetched by the caller from `metadata_url` after
/// ``SSOProviderRules/check(_:forUpdate:)``); GoTrue's database constraints are checked here
/// first, so that breaking one is answered as GoTrue answers it.
extension EmbeddedGoTrue {
  /// Makes a provider of `params` and `metadata` (`adminSSOProvidersCreate`).
  package func createSSOProvider(_ params: SSOProviderParams, metadata: [UInt8])
    throws(GoTrueFailure) -> SSOProviderRecord
  {
    let entityID = try Self.entityID(of: metadata)
    return try answer(spending: nil) { database, now throws(GoTrueAPIError) in
      if try database.ssoProviderID(entityID: entityID) != nil {
        throw GoTrueAPIError(
          status: 422, code: .samlIdPAlreadyExists,
          message: "SAML Identity Provider with this EntityID (\(entityID)) already exists")
      }
      let domains = params.domains ?? []
      for domain in domains {
        if let owner = try database.ssoProviderID(domain: domain) {
          throw GoTrueAPIError(
            status: 400, code: .ssoDomainAlreadyExists,
            message:
              "SSO Domain '\(domain)' is already assigned to an SSO identity provider (\(owner))")
        }
      }
      // What GoTrue's constraints refuse at the insert, its unforeseen 500.
      if let resourceID = params.resourceID,
        try database.ssoProviderID(resourceIDIgnoringCase: resourceID) != nil
      {
        throw Self.unforeseen
      }
      if try !Self.domainsFit(domains, database, removing: []) { throw Self.unforeseen }
      let provider = SSOProviderRecord(
        id: random.uuidString(), resourceID: params.resourceID, disabled: params.disabled,
        createdAt: now, updatedAt: now,
        saml: SAMLProviderRecord(
          id: random.uuidString(), entityID: entityID,
          metadataXML: String(decoding: metadata, as: UTF8.self),
          metadataURL: Self.nonEmpty(params.metadataURL),
          attributeMapping: params.attributeMapping.json.jsonText,
          nameIDFormat: Self.nonEmpty(params.nameIDFormat), createdAt: now, updatedAt: now),
        domains: domains.map {
          SSODomainRecord(id: random.uuidString(), domain: $0, createdAt: now, updatedAt: now)
        })
      try database.insertSSOProvider(provider)
      // GoTrue answers the connection and the domains as it reads them back.
      return try database.ssoProvider(id: provider.id) ?? provider
    }
  }

  /// The provider `idp_id` names (`loadSSOProvider`): `resource_<id>` by its resource id,
  /// anything else as a UUID; 404 `sso_provider_not_found` when there is none.
  package func ssoProvider(named name: String) throws(GoTrueFailure) -> SSOProviderRecord {
    try withDatabase { database throws(GoTrueAPIError) in try Self.load(name, database) }
  }

  /// The providers `filter` asks for (`adminSSOProvidersList`).
  package func ssoProviders(_ filter: SSOProviderFilter) throws(GoTrueFailure)
    -> [SSOProviderRecord]
  {
    try withDatabase { database throws(GoTrueAPIError) in try database.ssoProviders(filter) }
  }

  /// Deletes provider `id` with its connection and domains (`adminSSOProvidersDelete`),
  /// answering it as it was.
  package func deleteSSOProvider(id: String) throws(GoTrueFailure) -> SSOProviderRecord {
    try answer(spending: nil) { database, _ throws(GoTrueAPIError) in
      let provider = try Self.load(id, database)
      try database.deleteSSOProvider(id: provider.id)
      return provider
    }
  }

  static func load(_ name: String, _ database: EngineAccounts) throws(GoTrueAPIError)
    -> SSOProviderRecord
  {
    let notFound = GoTrueAPIError(
      status: 404, code: .ssoProviderNotFound, message: "SSO Identity Provider not found")
    let resourcePrefix = "resource_"
    let found: SSOProviderRecord?
    if name.hasPrefix(resourcePrefix) {
      found = try database.ssoProvider(resourceID: String(name.dropFirst(resourcePrefix.count)))
    } else {
      guard case .success(let id) = GoUUID.parse(name) else { throw notFound }
      found = try database.ssoProvider(id: id)
    }
    guard let found else { throw notFound }
    return found
  }

  /// The metadata's entity id, or GoTrue's refusal of it.
  static func entityID(of metadata: [UInt8]) throws(GoTrueFailure) -> String {
    switch SAMLMetadata.entityID(of: metadata) {
    case .success(let entityID): return entityID
    case .failure(.invalid(let message)): throw .api(.invalid(message))
    case .failure(.unreadable): throw .api(unforeseen)
    }
  }

  /// Whether `domains` can be added once `removing` are gone: none empty, none the same as
  /// another ignoring case (as the unique index on `lower(domain)` compares them), in the list
  /// or in the store.
  static func domainsFit(
    _ domains: [String], _ database: EngineAccounts, removing: [String]
  ) throws(GoTrueAPIError) -> Bool {
    var seen: Set<String> = []
    let removed = Set(removing.map { $0.lowercased() })
    for domain in domains {
      let lowered = domain.lowercased()
      guard !domain.isEmpty, seen.insert(lowered).inserted else { return false }
      if !removed.contains(lowered),
        try database.ssoProviderID(domain: domain, ignoringCase: true) != nil
      {
        return false
      }
    }
    return true
  }

  /// GoTrue's answer to an error it passes on unwrapped (a constraint, unreadable XML).
  static let unforeseen = GoTrueAPIError(
    status: 500, code: .unexpectedFailure,
    message: "Unexpected failure, please check server logs for more information")

  /// GoTrue's answer when an update's transaction fails.
  static let conflict = GoTrueAPIError(
    status: 422, code: .conflict,
    message: "Updating SSO provider failed, likely due to a conflict. Try again?")
}

extension JSONValue {
  /// The value as compact JSON text.
  var jsonText: String { String(decoding: jsonBytes, as: UTF8.self) }
}
