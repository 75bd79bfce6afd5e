import AccountStore
import Clocks
import Foundation
import GoTrue
import TestSupport
import Testing

@testable import GoTrueEngine

/// GoTrue's admin API for SSO providers on the store (both stores, with
/// `AUTHFLOW_TEST_STORE=postgres`): made, found, listed, changed and deleted with GoTrue's
/// rules and answers.
struct SSOProviderTests {
  let clock = AdjustableClock(fixedAt: testEpoch)

  private func params(
    entityID: String = "https://idp.example.com/metadata", domains: [String]? = nil
  ) -> SSOProviderParams {
    var params = SSOProviderParams()
    params.type = "saml"
    params.metadataXML = idpMetadata(entityID: entityID)
    params.domains = domains
    return params
  }

  private func create(_ engine: EmbeddedGoTrue, _ params: SSOProviderParams) throws
    -> SSOProviderRecord
  {
    try engine.createSSOProvider(params, metadata: Array(params.metadataXML.utf8))
  }

  @Test func aProviderIsMadeFoundListedAndDeleted() throws {
    let engine = try makeEngine(clock: clock)
    var asked = params(domains: ["example.com", "example.org"])
    asked.resourceID = "okta-main"
    asked.nameIDFormat = SSOProviderRules.nameIDFormats[1]
    asked.attributeMapping = SAMLAttributeMapping(keys: [
      "email": SAMLAttribute(name: "user.email", names: [], defaultValue: nil, array: false)
    ])
    let made = try create(engine, asked)
    #expect(made.saml.entityID == "https://idp.example.com/metadata")
    #expect(made.domains.map(\.domain) == ["example.com", "example.org"])
    #expect(made.createdAt == Int64(testEpoch.timeIntervalSince1970 * 1_000))
    #expect(SAMLAttributeMapping(stored: made.saml.attributeMapping) == asked.attributeMapping)

    let found = try engine.ssoProvider(named: made.id)
    #expect(found == made, "read back from the store as it was written")
    #expect(try engine.ssoProvider(named: made.id.uppercased()) == made, "any UUID form")
    #expect(try engine.ssoProvider(named: "resource_okta-main") == made)
    for missing in ["resource_OKTA-MAIN", "not-a-uuid", "3f1b6a4e-0a52-4f6c-9f0e-2b8c1f7d9a10"] {
      let refusal = failure { _ = try engine.ssoProvider(named: missing) }
      #expect(refusal?.apiError?.status == 404, "\(missing)")
      #expect(refusal?.apiError?.code == .ssoProviderNotFound, "\(missing)")
    }

    var other = params(entityID: "urn:other")
    other.resourceID = "azure_1"
    let second = try create(engine, other)
    #expect(try engine.ssoProviders(.all).map(\.id) == [made.id, second.id])
    #expect(try engine.ssoProviders(.resourceID("azure_1")).map(\.id) == [second.id])
    #expect(try engine.ssoProviders(.resourceIDPrefix("okta")).map(\.id) == [made.id])
    // LIKE's wildcards stay wildcards, and it minds case, on both stores.
    #expect(try engine.ssoProviders(.resourceIDPrefix("azure_")).map(\.id) == [second.id])
    #expect(try engine.ssoProviders(.resourceIDPrefix("o_ta")).map(\.id) == [made.id])
    #expect(try engine.ssoProviders(.resourceIDPrefix("OKTA")).isEmpty)

    #expect(try engine.deleteSSOProvider(id: made.id) == made)
    #expect(try engine.ssoProviders(.all).map(\.id) == [second.id])
    #expect(failure { _ = try engine.ssoProvider(named: made.id) }?.apiError?.status == 404)
  }

  @Test func aSecondProviderForAnEntityOrADomainIsRefused() throws {
    let engine = try makeEngine(clock: clock)
    let first = try create(engine, params(domains: ["example.com"]))
    let again = failure { _ = try create(engine, params()) }
    #expect(again?.apiError?.status == 422)
    #expect(again?.apiError?.code == .samlIdPAlreadyExists)
    #expect(
      again?.apiError?.message
        == "SAML Identity Provider with this EntityID (https://idp.example.com/metadata) already exists"
    )
    let domain = failure {
      _ = try create(engine, params(entityID: "urn:b", domains: ["example.com"]))
    }
    #expect(domain?.apiError?.status == 400)
    #expect(domain?.apiError?.code == .ssoDomainAlreadyExists)
    #expect(
      domain?.apiError?.message
        == "SSO Domain 'example.com' is already assigned to an SSO identity provider (\(first.id))")
    // What only GoTrue's unique indexes catch (another case, twice in one request, empty) is its
    // unforeseen 500, and nothing is kept.
    for domains in [["EXAMPLE.com"], ["a.com", "A.com"], [""]] {
      let refusal = failure { _ = try create(engine, params(entityID: "urn:c", domains: domains)) }
      #expect(refusal?.apiError?.status == 500, "\(domains)")
      #expect(refusal?.apiError?.code == .unexpectedFailure, "\(domains)")
    }
    #expect(try engine.ssoProviders(.all).count == 1)
    let unreadable = failure {
      _ = try engine.createSSOProvider(params(), metadata: Array("<nope".utf8))
    }
    #expect(unreadable?.apiError?.status == 500)
    let invalid = failure {
      _ = try engine.createSSOProvider(
        params(), metadata: Array(idpMetadata(entityID: "urn:d", descriptors: 0).utf8))
    }
    #expect(invalid?.apiError?.message == "SAML Metadata does not contain any IDPSSODescriptor")
  }

  @Test func anUpdateChangesWhatDiffersAsGoTrueDoes() throws {
    let engine = try makeEngine(clock: clock)
    let made = try create(engine, params(domains: ["a.com", "b.com"]))
    let other = try create(engine, params(entityID: "urn:other", domains: ["c.com"]))
    clock.advance(by: 60)

    var change = SSOProviderParams()
    change.domains = ["b.com", "d.com"]
    change.resourceID = "main"
    change.disabled = true
    change.attributeMapping = SAMLAttributeMapping(keys: [
      "role": SAMLAttribute(name: "", names: [], defaultValue: .string("staff"), array: false)
    ])
    let updated = try engine.updateSSOProvider(id: made.id, change, metadata: nil)
    #expect(updated.provider.domains.map(\.domain) == ["b.com", "d.com"])
    #expect(updated.provider.resourceID == "main" && updated.provider.disabled == true)
    #expect(
      SAMLAttributeMapping(stored: updated.provider.saml.attributeMapping)
        == change.attributeMapping)
    #expect(
      SAMLAttributeMapping(stored: updated.provider.saml.attributeMapping).json.jsonText
        == #"{"keys":{"role":{"default":"staff"}}}"#, "as Go writes it, empty members left out")
    #expect(updated.provider.updatedAt == made.updatedAt + 60_000)
    #expect(updated.provider.createdAt == made.createdAt)
    #expect(!updated.domainsRemoved)
    #expect(try engine.ssoProvider(named: made.id) == updated.provider)

    // Another provider's domain, new metadata of another entity: GoTrue's refusals.
    var taken = SSOProviderParams()
    taken.domains = ["c.com"]
    let refusal = failure { _ = try engine.updateSSOProvider(id: made.id, taken, metadata: nil) }
    #expect(refusal?.apiError?.code == .ssoDomainAlreadyExists)
    #expect(
      refusal?.apiError?.message
        == "SSO domain 'c.com' already assigned to another provider (\(other.id))")
    var renamed = SSOProviderParams()
    renamed.metadataXML = idpMetadata(entityID: "urn:elsewhere")
    let mismatch = failure {
      _ = try engine.updateSSOProvider(
        id: made.id, renamed, metadata: Array(renamed.metadataXML.utf8))
    }
    #expect(mismatch?.apiError?.code == .samlEntityIDMismatch)
    #expect(
      mismatch?.apiError?.message
        == "SAML Metadata can be updated only if the EntityID matches for the provider; "
        + "expected 'https://idp.example.com/metadata' but got 'urn:elsewhere'")
    // A clash GoTrue's transaction meets is its 422 conflict.
    var clash = SSOProviderParams()
    clash.domains = ["C.com"]
    let conflict = failure { _ = try engine.updateSSOProvider(id: made.id, clash, metadata: nil) }
    #expect(conflict?.apiError?.status == 422 && conflict?.apiError?.code == .conflict)

    // [] removes every domain (answered as a list), nil leaves them; "" clears the resource id.
    var clear = SSOProviderParams()
    clear.domains = []
    clear.resourceID = ""
    let cleared = try engine.updateSSOProvider(id: made.id, clear, metadata: nil)
    #expect(cleared.provider.domains.isEmpty && cleared.domainsRemoved)
    #expect(cleared.provider.resourceID == nil)
    let unchanged = try engine.updateSSOProvider(id: made.id, SSOProviderParams(), metadata: nil)
    #expect(unchanged.provider == cleared.provider && !unchanged.domainsRemoved)
  }

  @Test func newMetadataIsKeptAndANameIDFormatAloneIsLostAsInGoTrue() throws {
    let engine = try makeEngine(clock: clock)
    let made = try create(engine, params())
    var format = SSOProviderParams()
    format.nameIDFormat = SSOProviderRules.nameIDFormats[0]
    let alone = try engine.updateSSOProvider(id: made.id, format, metadata: nil)
    #expect(alone.provider.saml.nameIDFormat == nil, "GoTrue writes no SAML row for it alone")

    let metadata = idpMetadata().replacing("idp.example.com/sso", with: "idp.example.com/sso2")
    format.metadataURL = "https://idp.example.com/metadata.xml"
    let withMetadata = try engine.updateSSOProvider(
      id: made.id, format, metadata: Array(metadata.utf8))
    #expect(withMetadata.provider.saml.nameIDFormat == SSOProviderRules.nameIDFormats[0])
    #expect(withMetadata.provider.saml.metadataXML == metadata)
    #expect(withMetadata.provider.saml.metadataURL == "https://idp.example.com/metadata.xml")
  }

  @Test func theParametersAreCheckedInGoTruesOrder() {
    let cases: [(SSOProviderParams, Bool, String?)] = [
      (with { $0.type = "oidc" }, false, "Only 'saml' supported for SSO provider type"),
      (with { $0.type = "oidc" }, true, nil),
      (
        with {
          $0.type = "saml"
          $0.metadataURL = "https://a"
          $0.metadataXML = "<x/>"
        }, true, "Only one of metadata_xml or metadata_url needs to be set"
      ),
      (with { $0.type = "saml" }, false, "Either metadata_xml or metadata_url must be set"),
      (with { $0.metadataURL = "http://idp.example.com" }, true, "metadata_url is not a HTTPS URL"),
      (with { $0.metadataURL = "/metadata" }, true, "metadata_url is not a HTTPS URL"),
      (with { $0.metadataURL = "idp.example.com/x" }, true, "metadata_url is not a valid URL"),
      (with { $0.metadataURL = "https://bad host/" }, true, "metadata_url is not a valid URL"),
      (with { $0.metadataURL = "https:opaque" }, true, nil),
      (with { $0.metadataURL = "HTTPS://IDP.example.com/m" }, true, nil),
      (
        with {
          $0.metadataURL = "ftp://x"
          $0.nameIDFormat = "email"
        }, true, "metadata_url is not a HTTPS URL"
      ),
      (
        with { $0.nameIDFormat = "email" }, true,
        "name_id_format must be unspecified or one of "
          + "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent, "
          + "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress, "
          + "urn:oasis:names:tc:SAML:2.0:nameid-format:transient, "
          + "urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified"
      ),
    ]
    for (params, forUpdate, message) in cases {
      do {
        try SSOProviderRules.check(params, forUpdate: forUpdate)
        #expect(message == nil, "\(params)")
      } catch {
        #expect(error.message == message, "\(params)")
        #expect(error.code == .validationFailed && error.status == 400)
      }
    }
  }

  private func with(_ change: (inout SSOProviderParams) -> Void) -> SSOProviderParams {
    var params = SSOProviderParams()
    change(&params)
    return params
  }
}
