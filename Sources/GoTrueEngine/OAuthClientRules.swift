import GoTrue

/// What registers a client (GoTrue's `OAuthServerClientRegisterParams`): an admin's
/// `POST /admin/oauth/clients` or a dynamic `POST /oauth/clients/register`. Absent fields are
/// empty, as Go's decoder leaves them.
package struct OAuthClientRegistration: Sendable, Equatable {
  package var redirectURIs: [String] = []
  /// `public`, `confidential`, or empty to infer it from the method.
  package var clientType = ""
  /// `none`, `client_secret_basic`, `client_secret_post`, or empty for the type's default.
  package var tokenEndpointAuthMethod = ""
  package var grantTypes: [String] = []
  package var name = ""
  package var uri = ""
  package var logoURI = ""

  /// An empty registration.
  package init() {}
}

/// What `PUT /admin/oauth/clients/{client_id}` changes (GoTrue's
/// `OAuthServerClientUpdateParams`): each field given, `nil` for one left as it is.
package struct OAuthClientChanges: Sendable, Equatable {
  package var redirectURIs: [String]?
  package var grantTypes: [String]?
  package var name: String?
  package var uri: String?
  package var logoURI: String?
  package var tokenEndpointAuthMethod: String?

  /// No change.
  package init() {}

  /// Whether nothing is to change.
  var isEmpty: Bool {
    redirectURIs == nil && grantTypes == nil && name == nil && uri == nil && logoURI == nil
      && tokenEndpointAuthMethod == nil
  }
}

/// GoTrue's rules for OAuth clients (`oauthserver/service.go`, `client_auth.go`).
enum OAuthClientRules {
  static let authMethods = ["none", "client_secret_basic", "client_secret_post"]
  static let grantTypes = ["authorization_code", "refresh_token"]

  /// Go's `%v` of ``authMethods``.
  static var authMethodList: String { "[" + authMethods.joined(separator: " ") + "]" }

  /// The client type a method implies.
  static func clientType(forMethod method: String) -> String {
    method == "none" ? "public" : "confidential"
  }

  /// The methods a client type may use.
  static func methods(forType type: String) -> [String] {
    switch type {
    case "public": ["none"]
    case "confidential": ["client_secret_basic", "client_secret_post"]
    default: []
    }
  }

  static func check(_ registration: OAuthClientRegistration) throws(GoTrueAPIError) {
    try checkRedirectURIs(registration.redirectURIs, required: true)
    if !registration.grantTypes.isEmpty { try checkGrantTypes(registration.grantTypes) }
    try checkName(registration.name)
    try checkURI(registration.uri, "client_uri")
    try checkURI(registration.logoURI, "logo_uri")
    let type = registration.clientType
    if !type.isEmpty && type != "public" && type != "confidential" {
      throw .invalid("client_type must be 'public' or 'confidential'")
    }
    let method = registration.tokenEndpointAuthMethod
    if !method.isEmpty && !authMethods.contains(method) {
      throw .invalid("token_endpoint_auth_method must be one of: \(authMethodList)")
    }
    if !type.isEmpty && !method.isEmpty && type != clientType(forMethod: method) {
      throw .invalid(
        "client_type '\(type)' is inconsistent with token_endpoint_auth_method '\(method)' "
          + "(expected client_type '\(clientType(forMethod: method))')")
    }
  }

  static func check(_ changes: OAuthClientChanges) throws(GoTrueAPIError) {
    if let uris = changes.redirectURIs { try checkRedirectURIs(uris, required: false) }
    if let grants = changes.grantTypes { try checkGrantTypes(grants) }
    if let name = changes.name { try checkName(name) }
    if let uri = changes.uri { try checkURI(uri, "client_uri") }
    if let logo = changes.logoURI { try checkURI(logo, "logo_uri") }
    if let method = changes.tokenEndpointAuthMethod, !authMethods.contains(method) {
      throw .invalid("invalid token_endpoint_auth_method: must be one of \(authMethodList)")
    }
  }

  private static func checkRedirectURIs(_ uris: [String], required: Bool)
    throws(GoTrueAPIError)
  {
    if uris.isEmpty {
      throw .invalid(required ? "redirect_uris is required" : "redirect_uris cannot be empty")
    }
    if uris.count > 10 { throw .invalid("redirect_uris cannot exceed 10 items") }
    for uri in uris {
      if let problem = redirectURIProblem(uri) {
        throw .invalid("invalid redirect_uri '\(uri)': \(problem)")
      }
    }
  }

  /// What is wrong with `uri` as a redirect URI (GoTrue's `validateRedirectURI`), if anything.
  static func redirectURIProblem(_ uri: String) -> String? {
    if uri.isEmpty { return "redirect URI cannot be empty" }
    guard let url = GoURL(uri) else { return "invalid URL format" }
    if url.scheme.isEmpty || url.host.isEmpty { return "must have scheme and host" }
    let dangerous = ["javascript", "data", "file", "vbscript", "about", "blob"]
    if dangerous.contains(url.scheme) {
      return "scheme '\(url.scheme)' is not allowed for security reasons"
    }
    if url.scheme == "http" && !["localhost", "127.0.0.1", "::1"].contains(url.hostname) {
      return "HTTP scheme only allowed for localhost"
    }
    if !url.fragment.isEmpty { return "fragment not allowed in redirect URI" }
    return nil
  }

  private static func checkGrantTypes(_ grants: [String]) throws(GoTrueAPIError) {
    if grants.isEmpty { throw .invalid("grant_types cannot be empty") }
    if !grants.allSatisfy(grantTypes.contains) {
      throw .invalid("grant_types must only contain 'authorization_code' and/or 'refresh_token'")
    }
  }

  private static func checkName(_ name: String) throws(GoTrueAPIError) {
    if name.utf8.count > 1024 { throw .invalid("client_name cannot exceed 1024 characters") }
  }

  /// A client or logo URI: empty, or at most 2048 bytes that Go's `url.ParseRequestURI` reads
  /// (an absolute URL or an absolute path).
  private static func checkURI(_ uri: String, _ field: String) throws(GoTrueAPIError) {
    guard !uri.isEmpty else { return }
    if uri.utf8.count > 2048 { throw .invalid("\(field) cannot exceed 2048 characters") }
    let readable = GoURL(uri.replacing("#", with: "%23")).map { !$0.scheme.isEmpty } ?? false
    if !(readable || (uri.hasPrefix("/") && GoURL(uri) != nil)) {
      throw .invalid("\(field) must be a valid URL")
    }
  }
}

extension GoTrueAPIError {
  /// 400 `validation_failed`.
  static func invalid(_ message: String) -> GoTrueAPIError {
    GoTrueAPIError(status: 400, code: .validationFailed, message: message)
  }
}
