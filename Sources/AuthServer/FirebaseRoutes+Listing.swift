import FirebaseEmulator
import GoTrue
import HTTPServer
import IdentityToolkit

/// Finding accounts: how an email signs in (`createAuthUri`), lookups by token or identifier,
/// and an admin's listings (`batchGet`, its legacy `downloadAccount`, `query`).
extension FirebaseRoutes {
  /// `accounts:createAuthUri`: whether `identifier` has an account and how it signs in; with
  /// improved email privacy, only the session id.
  @Sendable static func createAuthUri(_ call: FirebaseCall) async throws(IdentityToolkitError)
    -> HTTPResponse
  {
    let request = try call.decode(IdentityToolkitRequest.CreateAuthUri.self)
    let answer = try call.emulation.authURI(
      identifier: request.identifier, continueURI: request.continueUri,
      sessionID: request.sessionId, providerID: request.providerId)
    guard let methods = answer.methods else {
      return call.json(IdentityToolkitCreateAuthUri(sessionId: answer.sessionID))
    }
    return call.json(
      IdentityToolkitCreateAuthUri(
        registered: methods.registered, allProviders: methods.providers,
        sessionId: answer.sessionID, signinMethods: methods.methods))
  }

  /// `accounts:lookup`: the user of an ID token, or (for an admin, who sends no token) the
  /// users named by `localId`, `email`, `phoneNumber` and `federatedUserId`; `users` is left
  /// out when none is found. Lookup by `initialEmail` is the emulator's `501`.
  @Sendable static func lookup(_ call: FirebaseCall) async throws(IdentityToolkitError)
    -> HTTPResponse
  {
    let body = try call.body()
    let request = try call.decode(IdentityToolkitRequest.Lookup.self)
    let accounts: [FirebaseAccount]
    if call.privileged {
      if body.has("initialEmail") {
        throw notImplemented("Lookup by initialEmail is not implemented.")
      }
      var lookup = FirebaseLookup()
      (lookup.ids, lookup.emails) = (request.localId ?? [], request.email ?? [])
      lookup.phoneNumbers = request.phoneNumber ?? []
      lookup.federatedIDs = try federatedIDs(body)
      accounts = try call.emulation.accounts(matching: lookup)
    } else {
      guard let idToken = request.idToken.nonEmpty else {
        throw .badRequest(.missingIDToken)
      }
      accounts = [try call.emulation.account(idToken: idToken)]
    }
    return call.json(IdentityToolkitLookup(users: accounts.map(FirebaseAnswer.user)))
  }

  /// The `{providerId, rawId}` pairs of `federatedUserId`; a pair missing either is skipped.
  private static func federatedIDs(_ body: FirebaseBody) throws(IdentityToolkitError)
    -> [FirebaseFederatedID]
  {
    guard body.has("federatedUserId") else { return [] }
    guard case .array(let entries)? = body.members["federatedUserId"] else {
      throw .invalidPayload("/federatedUserId should be array")
    }
    return entries.compactMap { entry in
      let object = entry.objectValue
      guard let provider = object?["providerId"]?.stringValue, !provider.isEmpty,
        let raw = object?["rawId"]?.stringValue, !raw.isEmpty
      else { return nil }
      return FirebaseFederatedID(providerID: provider, rawID: raw)
    }
  }

  /// `GET …/accounts:batchGet?maxResults=&nextPageToken=`: a page of users by id.
  @Sendable static func batchGet(_ call: FirebaseCall) async throws(IdentityToolkitError)
    -> HTTPResponse
  {
    let request = try FirebaseFieldDecoder.decode(
      IdentityToolkitRequest.BatchGet.self, from: FirebaseBody(query: call.request.query))
    return try page(call, maxResults: request.maxResults, after: request.nextPageToken)
  }

  /// `POST /www.googleapis.com/identitytoolkit/v3/relyingparty/downloadAccount`: without a
  /// `targetProjectId`, `INSUFFICIENT_PERMISSION` before the caller is even looked at;
  /// otherwise `batchGet` of that project for an admin, the body's fields as its query.
  @Sendable static func downloadAccount(_ call: FirebaseCall) async throws(IdentityToolkitError)
    -> HTTPResponse
  {
    let body = try call.body()
    guard let target = try body.nonEmpty("targetProjectId") else {
      throw .badRequest(.insufficientPermission)
    }
    _ = try authorize(call.request, access: .owner, trust: call.trust, call.emulation)
    guard target == call.emulation.projectID else {
      throw mismatch(target, call.emulation.projectID)
    }
    let request = try call.decode(IdentityToolkitRequest.DownloadAccount.self)
    return try page(
      call, maxResults: request.maxResults ?? call.request.queryValue("maxResults"),
      after: request.nextPageToken ?? call.request.queryValue("nextPageToken"))
  }

  /// A page as `batchGet` reads its parameters: `maxResults` floored (0 or unreadable is 20,
  /// a negative one is all), the page after `nextPageToken`.
  private static func page(_ call: FirebaseCall, maxResults: String?, after token: String?)
    throws(IdentityToolkitError) -> HTTPResponse
  {
    let limit = maxResults.flatMap(Double.init).flatMap { number in
      number.isFinite ? Int(max(-1, min(number.rounded(.down), 1_000_000))) : nil
    }
    let page = try call.emulation.page(
      after: token.flatMap { $0.isEmpty ? nil : $0 }, limit: limit)
    return call.json(
      IdentityToolkitDownloadAccount(
        users: page.accounts.map(FirebaseAnswer.exportedUser), nextPageToken: page.next))
  }
}
