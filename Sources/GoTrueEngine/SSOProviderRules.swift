import GoTrue

/// What an admin asks of an SSO provider, made or changed (GoTrue's
/// `CreateSSOProviderParams`): each member as Go leaves it when the body has none.
package struct SSOProviderParams: Sendable, Equatable {
  /// `saml`, the one type GoTrue makes.
  package var type = ""
  /// Where the metadata is fetched from (HTTPS only).
  package var metadataURL = ""
  /// The metadata itself.
  package var metadataXML = ""
  /// The email domains; `nil` (absent or `null`) leaves an update's as they are, `[]` removes
  /// them all.
  package var domains: [String]?
  /// The claims' mapping.
  package var attributeMapping = SAMLAttributeMapping()
  /// The `NameIDFormat` asked of the provider; empty for none.
  package var nameIDFormat = ""
  /// The admin's own name for the provider.
  package var resourceID: String?
  /// Whether it is switched off.
  package var disabled: Bool?

  /// Parameters as an empty body leaves them.
  package init() {}
}

/// GoTrue's checks of an SSO provider's parameters (`CreateSSOProviderParams.validate`), in
/// its order, before any metadata is read.
package enum SSOProviderRules {
  /// The `NameIDFormat`s GoTrue takes (crewjam/saml's), in the order its message names them.
  package static let nameIDFormats = [
    "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent",
    "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
    "urn:oasis:names:tc:SAML:2.0:nameid-format:transient",
    "urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified",
  ]

  /// Refuses `params` as GoTrue does (400 `validation_failed`); an update (`forUpdate`) needs
  /// no type and no metadata.
  package static func check(_ params: SSOProviderParams, forUpdate: Bool)
    throws(GoTrueAPIError)
  {
    if !forUpdate && params.type != "saml" {
      throw .invalid("Only 'saml' supported for SSO provider type")
    } else if !params.metadataURL.isEmpty && !params.metadataXML.isEmpty {
      throw .invalid("Only one of metadata_xml or metadata_url needs to be set")
    } else if !forUpdate && params.metadataURL.isEmpty && params.metadataXML.isEmpty {
      throw .invalid("Either metadata_xml or metadata_url must be set")
    } else if !params.metadataURL.isEmpty {
      guard let scheme = requestURIScheme(params.metadataURL) else {
        throw .invalid("metadata_url is not a valid URL")
      }
      if scheme != "https" { throw .invalid("metadata_url is not a HTTPS URL") }
    }
    if !params.nameIDFormat.isEmpty && !nameIDFormats.contains(params.nameIDFormat) {
      throw .invalid(
        "name_id_format must be unspecified or one of " + nameIDFormats.joined(separator: ", "))
    }
  }

  /// The lowercased scheme of `text` as Go's `url.ParseRequestURI` reads it (empty for an
  /// absolute path), or `nil` where it fails. A scheme followed by no `/` is an opaque URI,
  /// which Go takes.
  static func requestURIScheme(_ text: String) -> String? {
    if let uri = GoRequestURI(text) { return uri.scheme }
    guard !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }),
      let colon = text.firstIndex(of: ":"), colon > text.startIndex
    else { return nil }
    let scheme = text[..<colon]
    guard let first = scheme.unicodeScalars.first,
      scheme.unicodeScalars.allSatisfy({
        ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
          || "+-.".unicodeScalars.contains($0)
      }),
      ("a"..."z").contains(first) || ("A"..."Z").contains(first),
      text[text.index(after: colon)...].first != "/"
    else { return nil }
    return scheme.lowercased()
  }
}
