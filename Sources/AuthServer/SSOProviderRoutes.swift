import AccountStore
import GoTrue
import GoTrueEngine
import HTTPServer

/// GoTrue's admin API for SSO identity providers (`api.go`'s `/admin/sso/providers` group,
/// `api/ssoadmin.go`), served whether SAML sign-in is on or not, as GoTrue serves it: an admin
/// makes, lists, reads, changes and deletes SAML providers. `/sso` and `/sso/saml/*`, which
/// sign in through them, stay off (``FeaturesOff``).
enum SSOProviderRoutes {
  static let all: [Route] = [
    Route(
      "/admin/sso/providers", actions: [.get: admin(list), .post: admin(create)]),
    Route(
      "/admin/sso/providers/{idp_id}",
      actions: [.get: admin(show), .put: admin(update), .delete: admin(delete)]),
  ]

  /// `GET`: the providers, by `resource_id` or `resource_id_prefix` when asked, each without
  /// its metadata (GoTrue leaves it out "so that the returned JSON is not ginormous").
  @Sendable static func list(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    let request = context.request
    let filter: SSOProviderFilter =
      if let id = request.queryValue("resource_id"), !id.isEmpty {
        .resourceID(id)
      } else if let prefix = request.queryValue("resource_id_prefix"), !prefix.isEmpty {
        .resourceIDPrefix(prefix)
      } else {
        .all
      }
    let providers = try context.engine.ssoProviders(filter)
    return Answer.json(
      JSONValue.object(["items": .array(providers.map { answer($0, withMetadata: false) })]))
  }

  /// `POST`: a SAML provider of the body's metadata, given or fetched, 201.
  @Sendable static func create(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    let params = try SSOProviderBody.params(try context.body())
    try check(params, forUpdate: false)
    let metadata = try await metadata(params, context)
    let provider = try context.engine.createSSOProvider(params, metadata: metadata ?? [])
    return Answer.json(answer(provider), status: 201)
  }

  @Sendable static func show(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    Answer.json(answer(try context.engine.ssoProvider(named: context.parameter("idp_id"))))
  }

  /// `PUT`: the provider (404 before the body is read) changed by the body.
  @Sendable static func update(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    let provider = try context.engine.ssoProvider(named: context.parameter("idp_id"))
    let params = try SSOProviderBody.params(try context.body())
    try check(params, forUpdate: true)
    let metadata = try await metadata(params, context)
    let updated = try context.engine.updateSSOProvider(
      id: provider.id, params, metadata: metadata)
    return Answer.json(answer(updated.provider, domainsRemoved: updated.domainsRemoved))
  }

  /// `DELETE`: the provider, answered as it was.
  @Sendable static func delete(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    Answer.json(answer(try context.engine.deleteSSOProvider(id: context.parameter("idp_id"))))
  }

  private static func check(_ params: SSOProviderParams, forUpdate: Bool) throws(GoTrueFailure) {
    do throws(GoTrueAPIError) {
      try SSOProviderRules.check(params, forUpdate: forUpdate)
    } catch {
      throw .api(error)
    }
  }

  /// The metadata the body gives or names (`metadata_xml`, else `metadata_url` fetched), or
  /// `nil` when it has neither.
  private static func metadata(_ params: SSOProviderParams, _ context: RouteContext)
    async throws(GoTrueFailure) -> [UInt8]?
  {
    if !params.metadataXML.isEmpty { return Array(params.metadataXML.utf8) }
    guard !params.metadataURL.isEmpty else { return nil }
    do throws(GoTrueAPIError) {
      return try await context.metadataFetcher.fetch(params.metadataURL)
    } catch {
      throw .api(error)
    }
  }

  /// A provider as GoTrue writes `models.SSOProvider`: `resource_id` only when set,
  /// `disabled` `null` until set, the SAML connection without its ids and times (its metadata
  /// left out `withMetadata` off), `domains` `null` when it has none (`[]` when an update just
  /// removed them all: Go's reloaded list).
  static func answer(
    _ provider: SSOProviderRecord, withMetadata: Bool = true, domainsRemoved: Bool = false
  ) -> JSONValue {
    let saml = provider.saml
    var connection: [String: JSONValue] = [
      "entity_id": .string(saml.entityID),
      "attribute_mapping": SAMLAttributeMapping(stored: saml.attributeMapping).json,
    ]
    if withMetadata && !saml.metadataXML.isEmpty {
      connection["metadata_xml"] = .string(saml.metadataXML)
    }
    if let url = saml.metadataURL { connection["metadata_url"] = .string(url) }
    if let format = saml.nameIDFormat { connection["name_id_format"] = .string(format) }
    let domains = provider.domains.map { JSONValue.object(["domain": .string($0.domain)]) }
    var members: [String: JSONValue] = [
      "id": .string(provider.id), "disabled": provider.disabled.map(JSONValue.bool) ?? .null,
      "saml": .object(connection),
      "domains": domains.isEmpty && !domainsRemoved ? .null : .array(domains),
      "created_at": OAuthServerRoutes.time(provider.createdAt),
      "updated_at": OAuthServerRoutes.time(provider.updatedAt),
    ]
    if let resourceID = provider.resourceID { members["resource_id"] = .string(resourceID) }
    return .object(members)
  }

  private static func admin(_ handler: @escaping Route.Handler) -> Route.Action {
    Route.Action(access: .admin, limit: nil, work: .handler(handler))
  }
}
