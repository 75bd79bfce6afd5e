import Testing

@testable import GoTrueEngine

/// An identity provider's metadata, as a small IdP would publish it.
func idpMetadata(
  entityID: String = "https://idp.example.com/metadata", descriptors: Int = 1,
  declaration: String = #"<?xml version="1.0" encoding="UTF-8"?>"#
) -> String {
  let descriptor = """
    <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">\
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>\
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" \
    Location="https://idp.example.com/sso"/></md:IDPSSODescriptor>
    """
  let id = entityID.isEmpty ? "" : #" entityID="\#(entityID)""#
  return declaration
    + #"<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata"\#(id)>"#
    + String(repeating: descriptor, count: descriptors) + "</md:EntityDescriptor>"
}

/// Metadata read as GoTrue's `parseSAMLMetadata` reads it, with libxml2.
struct SAMLMetadataTests {
  private func read(_ text: String) -> Result<String, SAMLMetadata.Refusal> {
    SAMLMetadata.entityID(of: Array(text.utf8))
  }

  @Test func anIdentityProvidersEntityIDIsRead() {
    #expect(read(idpMetadata()) == .success("https://idp.example.com/metadata"))
    // Without a declaration, or with a default namespace instead of a prefix.
    let plain = """
      <EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="urn:idp">\
      <IDPSSODescriptor/></EntityDescriptor>
      """
    #expect(read(plain) == .success("urn:idp"))
  }

  @Test func anEntitiesDescriptorGivesItsFirstIdentityProvider() {
    let entities = """
      <EntitiesDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata">\
      <EntityDescriptor entityID="urn:sp"><SPSSODescriptor/></EntityDescriptor>\
      <EntityDescriptor entityID="urn:idp-1"><IDPSSODescriptor/></EntityDescriptor>\
      <EntityDescriptor entityID="urn:idp-2"><IDPSSODescriptor/></EntityDescriptor>\
      </EntitiesDescriptor>
      """
    #expect(read(entities) == .success("urn:idp-1"))
    let none = """
      <EntitiesDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata">\
      <EntityDescriptor entityID="urn:sp"><SPSSODescriptor/></EntityDescriptor>\
      </EntitiesDescriptor>
      """
    #expect(read(none) == .failure(.unreadable("no EntityDescriptor of SAML 2.0 metadata")))
  }

  @Test func gotruesChecksOfTheDescriptorSayWhatIsWrong() {
    #expect(
      read(idpMetadata(entityID: ""))
        == .failure(.invalid("SAML Metadata does not contain an EntityID")))
    #expect(
      read(idpMetadata(descriptors: 0))
        == .failure(.invalid("SAML Metadata does not contain any IDPSSODescriptor")))
    #expect(
      read(idpMetadata(descriptors: 2))
        == .failure(.invalid("SAML Metadata contains multiple IDPSSODescriptors")))
  }

  @Test func invalidUTF8IsRefusedInGoTruesWords() {
    var bytes = Array(idpMetadata().utf8)
    bytes.insert(0xFF, at: bytes.count - 5)
    #expect(
      SAMLMetadata.entityID(of: bytes)
        == .failure(
          .invalid(
            "SAML Metadata XML contains invalid UTF-8 characters, which are not supported at "
              + "this time")))
  }

  @Test func whatGosDecoderCannotReadIsUnreadable() {
    let cases = [
      "not xml at all",
      idpMetadata() + "<trailing/>",
      // The right name in another namespace, or another root.
      #"<EntityDescriptor xmlns="urn:other" entityID="x"><IDPSSODescriptor/></EntityDescriptor>"#,
      #"<Metadata xmlns="urn:oasis:names:tc:SAML:2.0:metadata"/>"#,
      // Go's decoder reads UTF-8 only.
      idpMetadata(declaration: #"<?xml version="1.0" encoding="ISO-8859-1"?>"#),
    ]
    for text in cases {
      guard case .failure(.unreadable) = read(text) else {
        Issue.record("read \(text)")
        continue
      }
    }
  }
}
