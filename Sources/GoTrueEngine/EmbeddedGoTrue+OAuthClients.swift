import AccountStore
import AuthCrypto
import GoTrue

/// The OAuth 2.1 server's clients (GoTrue's `oauthserver/handlers.go` and `service.go`):
/// registered by an admin or, when allowed, by anyone; their secrets made here, shown once and
/// kept as their SHA-256 only.
extension EmbeddedGoTrue {
  /// A client just registered or given a new secret, with the secret in clear when it has one:
  /// the only time it is shown.
  package typealias IssuedOAuthClient = (client: OAuthClientRecord, secret: String?)

  /// Registers a client (`dynamic`: through RFC 7591 registration, else by an admin). A
  /// refusal is 400 `validation_failed` with the rule's answer behind its status, as GoTrue
  /// wraps it.
  package func registerOAuthClient(_ registration: OAuthClientRegistration, dynamic: Bool)
    throws(GoTrueFailure) -> IssuedOAuthClient
  {
    do throws(GoTrueAPIError) {
      try OAuthClientRules.check(registration)
    } catch {
      throw .api(.invalid("\(error.status): \(error.message)"))
    }
    let method = registration.tokenEndpointAuthMethod
    let type =
      !registration.clientType.isEmpty
      ? registration.clientType
      : method.isEmpty ? "confidential" : OAuthClientRules.clientType(forMethod: method)
    let secret = type == "confidential" ? secretRandom.token(byteCount: 32) : nil
    return try answer(spending: nil) { database, now throws(GoTrueAPIError) in
      let client = OAuthClientRecord(
        id: random.uuidString(), secretHash: secret.map(Self.secretHash) ?? "",
        registrationType: dynamic ? "dynamic" : "manual", clientType: type,
        tokenEndpointAuthMethod: method.isEmpty
          ? (type == "public" ? "none" : "client_secret_basic") : method,
        redirectURIs: registration.redirectURIs.joined(separator: ","),
        grantTypes: (registration.grantTypes.isEmpty
          ? OAuthClientRules.grantTypes : registration.grantTypes).joined(separator: ","),
        name: Self.nonEmpty(registration.name), uri: Self.nonEmpty(registration.uri),
        logoURI: Self.nonEmpty(registration.logoURI), createdAt: now, updatedAt: now)
      try Self.checkStored(client)
      try database.insertOAuthClient(client)
      return (client, secret)
    }
  }

  /// Client `clientID` as the admin routes load it (GoTrue's `LoadOAuthServerClient`): 400
  /// for an id that is no UUID, 404 `oauth_client_not_found` for one not registered.
  package func oauthClient(id clientID: String) throws(GoTrueFailure) -> OAuthClientRecord {
    let id = try Self.clientUUID(clientID)
    return try withDatabase { database throws(GoTrueAPIError) in
      try Self.loadClient(id, database)
    }
  }

  /// The clients, newest first.
  package func oauthClients() throws(GoTrueFailure) -> [OAuthClientRecord] {
    try withDatabase { database throws(GoTrueAPIError) in try database.oauthClients() }
  }

  /// Changes client `clientID` (`PUT`): only the fields given, each checked first.
  package func updateOAuthClient(id clientID: String, _ changes: OAuthClientChanges)
    throws(GoTrueFailure) -> OAuthClientRecord
  {
    let id = try Self.clientUUID(clientID)
    return try answer(spending: nil) { database, now throws(GoTrueAPIError) in
      var client = try Self.loadClient(id, database)
      if changes.isEmpty { throw .invalid("No fields provided for update") }
      try OAuthClientRules.check(changes)
      if let uris = changes.redirectURIs { client.redirectURIs = uris.joined(separator: ",") }
      if let grants = changes.grantTypes { client.grantTypes = grants.joined(separator: ",") }
      if let name = changes.name { client.name = Self.nonEmpty(name) }
      if let uri = changes.uri { client.uri = Self.nonEmpty(uri) }
      if let logo = changes.logoURI { client.logoURI = Self.nonEmpty(logo) }
      if let method = changes.tokenEndpointAuthMethod {
        let allowed = OAuthClientRules.methods(forType: client.clientType)
        guard allowed.contains(method) else {
          throw .invalid(
            "token_endpoint_auth_method '\(method)' is not valid for client_type "
              + "'\(client.clientType)'; valid methods: [\(allowed.joined(separator: " "))]")
        }
        client.tokenEndpointAuthMethod = method
      }
      client.updatedAt = now
      try Self.checkStored(client)
      try database.updateOAuthClient(client)
      return client
    }
  }

  /// Deletes client `clientID`, softly as GoTrue does: it is found no more.
  package func deleteOAuthClient(id clientID: String) throws(GoTrueFailure) {
    let id = try Self.clientUUID(clientID)
    try answer(spending: nil) { database, now throws(GoTrueAPIError) in
      var client = try Self.loadClient(id, database)
      client.deletedAt = now
      client.updatedAt = now
      try database.updateOAuthClient(client)
    }
  }

  /// Gives confidential client `clientID` a new secret; the old one stops working.
  package func regenerateOAuthClientSecret(id clientID: String) throws(GoTrueFailure)
    -> IssuedOAuthClient
  {
    let id = try Self.clientUUID(clientID)
    let secret = secretRandom.token(byteCount: 32)
    return try answer(spending: nil) { database, now throws(GoTrueAPIError) in
      var client = try Self.loadClient(id, database)
      guard client.clientType == "confidential" else {
        throw .invalid("Cannot regenerate secret for public client")
      }
      client.secretHash = Self.secretHash(secret)
      client.updatedAt = now
      try database.updateOAuthClient(client)
      return (client, secret)
    }
  }

  /// A client secret as GoTrue keeps it: SHA-256, unpadded base64url.
  static func secretHash(_ secret: String) -> String {
    Base64URL.encode(SHA256.hash(secret))
  }

  /// Whether `secret` is the one `client` keeps the hash of, compared in constant time.
  static func secretMatches(_ secret: String, _ client: OAuthClientRecord) -> Bool {
    guard let stored = Base64URL.decode(client.secretHash) else { return false }
    return constantTimeEquals(SHA256.hash(secret), stored)
  }

  static func clientUUID(_ text: String) throws(GoTrueFailure) -> String {
    if text.isEmpty { throw .api(.invalid("client_id is required")) }
    switch GoUUID.parse(text) {
    case .success(let id): return id
    case .failure: throw .api(.invalid("invalid client_id format"))
    }
  }

  static func loadClient(_ id: String, _ database: EngineAccounts) throws(GoTrueAPIError)
    -> OAuthClientRecord
  {
    guard let client = try database.oauthClient(id: id) else {
      throw GoTrueAPIError(
        status: 404, code: .oauthClientNotFound, message: "OAuth client not found")
    }
    return client
  }

  /// GoTrue's `OAuthServerClient.Validate`, run before each write; its refusals are
  /// unforeseen errors there (500), as here.
  private static func checkStored(_ client: OAuthClientRecord) throws(GoTrueAPIError) {
    let problem: String? =
      switch (client.clientType, client.tokenEndpointAuthMethod) {
      case ("public", let method) where method != "none":
        "public clients must use token_endpoint_auth_method 'none'"
      case ("confidential", "none"):
        "confidential clients cannot use token_endpoint_auth_method 'none'"
      default: nil
      }
    if let problem {
      throw GoTrueAPIError(status: 500, code: .unexpectedFailure, message: problem)
    }
  }

  static func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }
}
