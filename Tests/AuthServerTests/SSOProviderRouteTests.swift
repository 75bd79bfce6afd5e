import Foundation
import GoTrue
import HTTPClient
import HTTPServer
import Testing

@testable import AuthServer

/// GoTrue's admin API for SSO providers on the wire (`/admin/sso/providers`), served with SAML
/// sign-in off as GoTrue serves it: `models.SSOProvider`'s JSON, its checks in its order, and
/// `metadata_url` fetched (through a scripted transport: tests never reach the network).
struct SSOProviderRouteTests {
  static let metadata = """
    <?xml version="1.0" encoding="UTF-8"?><md:EntityDescriptor \
    xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.example.com/saml">\
    <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">\
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" \
    Location="https://idp.example.com/sso"/></md:IDPSSODescriptor></md:EntityDescriptor>
    """

  static func body(_ members: [String: Any]) throws -> String {
    String(decoding: try JSONSerialization.data(withJSONObject: members), as: UTF8.self)
  }

  @Test func anAdminMakesReadsListsChangesAndDeletesAProvider() async throws {
    let server = try TestServer()
    let created = await server.send(
      .post, "/admin/sso/providers",
      json: try Self.body([
        "type": "saml", "metadata_xml": Self.metadata, "domains": ["example.com"],
        "resource_id": "okta",
        "name_id_format": "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent",
        "attribute_mapping": ["keys": ["email": ["name": "mail", "names": [], "array": false]]],
      ]), headers: server.admin)
    #expect(created.status == 201)
    let provider = try #require(created.object)
    #expect(
      Set(provider.keys)
        == ["id", "resource_id", "disabled", "saml", "domains", "created_at", "updated_at"])
    #expect(provider["disabled"] is NSNull)
    #expect(provider["resource_id"] as? String == "okta")
    #expect(provider["created_at"] as? String == "2025-01-01T00:00:00Z")
    let saml = try #require(provider["saml"] as? [String: Any])
    #expect(
      Set(saml.keys) == ["entity_id", "metadata_xml", "attribute_mapping", "name_id_format"],
      "no ids or times, no metadata_url for given XML")
    #expect(saml["entity_id"] as? String == "https://idp.example.com/saml")
    #expect(saml["metadata_xml"] as? String == Self.metadata)
    let mapping = try #require(saml["attribute_mapping"] as? [String: Any])
    #expect(
      (mapping["keys"] as? [String: [String: String]]) == ["email": ["name": "mail"]],
      "empty members left out as Go leaves them")
    #expect((provider["domains"] as? [[String: String]]) == [["domain": "example.com"]])
    let id = try #require(provider["id"] as? String)

    for path in ["/admin/sso/providers/\(id)", "/auth/v1/admin/sso/providers/resource_okta"] {
      let read = await server.send(.get, path, headers: server.admin)
      #expect(read.status == 200 && read.text == created.text, "\(path)")
    }
    let listed = await server.send(.get, "/admin/sso/providers", headers: server.admin)
    let items = try #require(listed.object?["items"] as? [[String: Any]])
    #expect(items.count == 1 && items.first?["id"] as? String == id)
    let listedSAML = try #require(items.first?["saml"] as? [String: Any])
    #expect(listedSAML["metadata_xml"] == nil, "the list leaves the metadata out")
    let filtered = await server.send(
      .get, "/admin/sso/providers", query: [("resource_id_prefix", "ok")], headers: server.admin)
    #expect((filtered.object?["items"] as? [Any])?.count == 1)
    let none = await server.send(
      .get, "/admin/sso/providers", query: [("resource_id", "OKTA")], headers: server.admin)
    #expect(none.text == #"{"items":[]}"#)

    let changed = await server.send(
      .put, "/admin/sso/providers/\(id)", json: #"{"domains":[],"disabled":true}"#,
      headers: server.admin)
    #expect(changed.status == 200)
    #expect(changed.object?["disabled"] as? Bool == true)
    #expect((changed.object?["domains"] as? [Any])?.isEmpty == true, "[] after removing them")
    let reread = await server.send(.get, "/admin/sso/providers/\(id)", headers: server.admin)
    #expect(reread.object?["domains"] is NSNull, "null when read with none")

    let deleted = await server.send(.delete, "/admin/sso/providers/\(id)", headers: server.admin)
    #expect(deleted.status == 200 && deleted.text == reread.text)
    let gone = await server.send(.get, "/admin/sso/providers/\(id)", headers: server.admin)
    #expect(gone.status == 404 && gone.errorCode == "sso_provider_not_found")
  }

  @Test func theBodyIsReadAndCheckedAsGoTrueReadsAndChecksIt() async throws {
    let server = try TestServer()
    let prefix = "Could not parse request body as JSON: json: cannot unmarshal "
    let cases: [(String, Int, String, String)] = [
      (
        #"{"type":"saml","domains":"a.com"}"#, 400, "bad_json",
        prefix + "string into Go struct field .domains of type []string"
      ),
      (
        #"{"type":"saml","domains":[1]}"#, 400, "bad_json",
        prefix + "number into Go struct field .domains of type string"
      ),
      (
        #"{"attribute_mapping":{"keys":{"email":{"name":7}}}}"#, 400, "bad_json",
        prefix + "number into Go struct field .attribute_mapping.keys.email.name of type string"
      ),
      (
        #"{"attribute_mapping":[]}"#, 400, "bad_json",
        prefix + "array into Go struct field .attribute_mapping of type models.SAMLAttributeMapping"
      ),
      (
        #"{"TYPE":"oidc"}"#, 400, "validation_failed", "Only 'saml' supported for SSO provider type"
      ),
      (
        #"{"type":"saml","metadata_url":"not a url"}"#, 400, "validation_failed",
        "metadata_url is not a valid URL"
      ),
      (
        #"{"type":"saml","metadata_xml":"<x/>","name_id_format":"x"}"#, 400, "validation_failed",
        "name_id_format must be unspecified or one of "
          + "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent, "
          + "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress, "
          + "urn:oasis:names:tc:SAML:2.0:nameid-format:transient, "
          + "urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified"
      ),
      (
        try Self.body([
          "type": "saml", "metadata_xml": Self.metadata.replacing("entityID", with: "id"),
        ]),
        400, "validation_failed", "SAML Metadata does not contain an EntityID"
      ),
      (
        #"{"type":"saml","metadata_xml":"<x/>"}"#, 500, "unexpected_failure",
        "Unexpected failure, please check server logs for more information"
      ),
    ]
    for (body, status, code, message) in cases {
      let reply = await server.send(
        .post, "/admin/sso/providers", json: body, headers: server.admin)
      #expect(reply.status == status, "\(body)")
      #expect(reply.errorCode == code, "\(body)")
      #expect(reply.object?["msg"] as? String == message, "\(body)")
    }
    // An update finds the provider before it reads the body.
    let missing = await server.send(
      .put, "/admin/sso/providers/resource_none", json: "[", headers: server.admin)
    #expect(missing.status == 404 && missing.errorCode == "sso_provider_not_found")
    let stranger = await server.send(.post, "/admin/sso/providers", json: "{}")
    #expect(stranger.status == 401 && stranger.errorCode == "no_authorization")
  }

  @Test func metadataIsFetchedFromItsURLAsGoTrueFetchesIt() async throws {
    let url = "https://idp.example.com/metadata.xml"
    let transport = ScriptedHookTransport([
      .success(HTTPClient.HTTPResponse(status: 200, body: Data(Self.metadata.utf8))),
      .success(HTTPClient.HTTPResponse(status: 404, body: Data("gone".utf8))),
      .failure(.unreachable("no route to host")),
      .success(HTTPClient.HTTPResponse(status: 200, body: Data([0x3C, 0xFF, 0x3E]))),
    ])
    let server = try TestServer(metadataFetcher: SAMLMetadataFetcher(transport: transport))
    let body = #"{"type":"saml","metadata_url":"\#(url)"}"#
    let created = await server.send(
      .post, "/admin/sso/providers", json: body, headers: server.admin)
    #expect(created.status == 201)
    let saml = try #require(created.object?["saml"] as? [String: Any])
    #expect(saml["metadata_url"] as? String == url)
    #expect(saml["metadata_xml"] as? String == Self.metadata)
    let request = try #require(transport.requests.first)
    #expect(request.method == "GET" && request.url == url && request.body == nil)
    #expect(
      request.headers == [
        .init("Accept", "application/xml;charset=UTF-8"), .init("Accept-Charset", "UTF-8"),
      ])

    let answers: [(Int, String, String)] = [
      (
        400, "saml_metadata_fetch_failed", "HTTP 404 error fetching SAML Metadata from URL '\(url)'"
      ),
      (
        500, "unexpected_failure",
        "Unexpected failure, please check server logs for more information"
      ),
      (
        400, "validation_failed",
        "SAML Metadata XML contains invalid UTF-8 characters, which are not supported at this time"
      ),
    ]
    for (status, code, message) in answers {
      let reply = await server.send(
        .post, "/admin/sso/providers", json: body, headers: server.admin)
      #expect(reply.status == status && reply.errorCode == code, "\(message)")
      #expect(reply.object?["msg"] as? String == message)
    }
    // A URL that is not HTTPS is never fetched.
    let plain = await server.send(
      .post, "/admin/sso/providers", json: #"{"type":"saml","metadata_url":"http://idp"}"#,
      headers: server.admin)
    #expect(plain.status == 400 && transport.requests.count == 4)
  }
}
