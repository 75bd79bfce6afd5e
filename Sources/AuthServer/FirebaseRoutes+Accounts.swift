import FirebaseEmulator
import GoTrueEngine
import HTTPServer
import IdentityToolkit

/// Accounts: sign-up, sign-in, lookup, update and deletion, in the emulator's order of checks
/// (`operations.ts`).
extension FirebaseRoutes {
  /// `accounts:signUp` (a user: an email and password, anonymous, or linking to the user of
  /// an ID token; signed in) and `projects/{id}/accounts` (an admin making an account, no
  /// tokens), checked in the emulator's order (``FirebaseEmulation/signUp(_:privileged:)``).
  @Sendable static func signUp(_ call: FirebaseCall) async throws(IdentityToolkitError)
    -> HTTPResponse
  {
    try refuseUnsupported(try call.body(), ["mfaInfo"])
    let request = try call.decode(IdentityToolkitRequest.SignUp.self)
    let signedUp = try await call.emulation.signUp(request, privileged: call.privileged)
    guard let session = signedUp.session else {
      let account = signedUp.account
      return call.json(
        IdentityToolkitNewAccount(
          localId: account.id, displayName: account.displayName,
          email: account.email.isEmpty ? nil : account.email))
    }
    return call.json(signedIn(session, kind: "identitytoolkit#SignupNewUserResponse"))
  }

  /// `accounts:signInWithPassword`.
  @Sendable static func signIn(_ call: FirebaseCall) async throws(IdentityToolkitError)
    -> HTTPResponse
  {
    let body = try call.body()
    let unsupported =
      body.has("captchaResponse") || body.has("captchaChallenge")
      ? "captcha unimplemented"
      : body.has("idToken") || body.has("pendingIdToken")
        ? "idToken / pendingIdToken is no longer in use and unsupported by the Auth Emulator."
        : nil
    let request = try call.decode(IdentityToolkitRequest.SignInWithPassword.self)
    let outcome = try await call.emulation.signIn(
      email: request.email, password: request.password, unsupported: unsupported)
    let kind = "identitytoolkit#VerifyPasswordResponse"
    switch outcome {
    case .signedIn(let session):
      var answer = signedIn(session, kind: kind)
      answer.registered = true
      answer.displayName = nil
      return call.json(answer)
    case .secondFactorPending(let pending):
      return call.json(FirebaseAnswer.pending(pending, kind: kind, registered: true))
    }
  }

  /// A sign-in's answer: the user's id and email, and the session.
  static func signedIn(_ session: FirebaseSession, kind: String) -> IdentityToolkitSignIn {
    IdentityToolkitSignIn(
      kind: kind, localId: session.account.id,
      email: session.account.email.isEmpty ? nil : session.account.email,
      displayName: session.account.displayName, idToken: session.idToken,
      refreshToken: session.refreshToken, expiresIn: "\(session.expiresIn)")
  }

  /// `accounts:delete`: the user of an ID token, or (for an admin) the user `localId`.
  @Sendable static func delete(_ call: FirebaseCall) async throws(IdentityToolkitError)
    -> HTTPResponse
  {
    let request = try call.decode(IdentityToolkitRequest.Delete.self)
    if call.privileged {
      guard let id = request.localId.nonEmpty else { throw .badRequest(.missingLocalID) }
      try call.emulation.delete(id: id)
    } else {
      guard let idToken = request.idToken.nonEmpty else {
        throw .badRequest(.missingIDToken)
      }
      try call.emulation.deleteAccount(idToken: idToken)
    }
    return FirebaseAnswer.kind("identitytoolkit#DeleteAccountResponse")
  }

  /// `accounts:update`: changes the user of an ID token, or (for an admin) the user
  /// `localId`; or applies an out-of-band code. The emulator's checks before its branches come
  /// first, here; then the code's branch; then the change
  /// (``FirebaseEmulation/update(_:_:privileged:)``).
  @Sendable static func update(_ call: FirebaseCall) async throws(IdentityToolkitError)
    -> HTTPResponse
  {
    let body = try call.body()
    for field in ["provider", "upgradeToFederatedLogin"] where body.has(field) {
      throw notImplemented("\(field) is not implemented yet.")
    }
    let request = try call.decode(IdentityToolkitRequest.Update.self)
    if call.privileged {
      guard request.localId.nonEmpty != nil else { throw .badRequest(.missingLocalID) }
    } else {
      guard request.idToken.nonEmpty != nil || request.oobCode.nonEmpty != nil else {
        throw .badRequest(.invalidRequestType, "Unsupported request parameters.")
      }
      if request.customAttributes != nil { throw .badRequest(.insufficientPermission) }
    }
    let claims = request.customAttributes
    if let claims, !claims.isEmpty { _ = try FirebaseCustomClaims.parse(serialized: claims) }
    let deleted = try deletedAttributes(body)

    // The emulator's `oobCode` branch (FirebaseRoutes+Codes.swift).
    if let applied = try applyCode(call, body) { return applied }

    try refuseUnsupported(body, ["mfa"])
    var changes = FirebaseAccountChanges()
    (changes.email, changes.password) = (request.email.nonEmpty, request.password.nonEmpty)
    (changes.displayName, changes.photoURL) = (request.displayName, request.photoUrl)
    (changes.validSince, changes.disabled) = (request.validSince, request.disableUser)
    changes.deletedProviders = request.deleteProvider ?? []
    (changes.deleteDisplayName, changes.deletePhotoURL) =
      (deleted.contains("DISPLAY_NAME"), deleted.contains("PHOTO_URL"))
    (changes.deletePassword, changes.deleteEmail) =
      (deleted.contains("PASSWORD"), deleted.contains("EMAIL"))
    if call.privileged {
      changes.emailVerified = request.emailVerified
      changes.customAttributes = claims
      (changes.createdAt, changes.lastLoginAt) = (request.createdAt, request.lastLoginAt)
      changes.phoneNumber = request.phoneNumber.nonEmpty
    }
    if let link = try body.object("linkProviderUserInfo") {
      guard try link.nonEmpty("providerId") != nil else {
        throw .badRequest("MISSING_PROVIDER_ID")
      }
      guard try link.nonEmpty("rawId") != nil else { throw .badRequest("MISSING_RAW_ID") }
      throw notImplemented("linkProviderUserInfo is not implemented in authflow serve.")
    }
    let target: FirebaseAccountTarget =
      request.idToken.nonEmpty.map { .idToken($0) } ?? .id(request.localId.nonEmpty ?? "")
    let update = try await call.emulation.update(target, changes, privileged: call.privileged)
    return call.json(
      FirebaseAnswer.updated(update.account, session: update.session, newEmail: update.newEmail))
  }

  /// The attributes `deleteAttribute` names (an integer is the name at that index, as the
  /// emulator reads enums); `PROVIDER` and `RAW_USER_INFO` are the emulator's `501`.
  private static func deletedAttributes(_ body: FirebaseBody) throws(IdentityToolkitError)
    -> Set<String>
  {
    let names = [
      "USER_ATTRIBUTE_NAME_UNSPECIFIED", "EMAIL", "DISPLAY_NAME", "PROVIDER", "PHOTO_URL",
      "PASSWORD", "RAW_USER_INFO",
    ]
    var deleted: Set<String> = []
    for (index, value) in try body.strings("deleteAttribute").enumerated() {
      let name = Int(value).flatMap { names.indices.contains($0) ? names[$0] : nil } ?? value
      guard names.contains(name) else {
        throw .invalidPayload(
          "/deleteAttribute/\(index) should be equal to one of the allowed values")
      }
      if name == "PROVIDER" || name == "RAW_USER_INFO" {
        throw notImplemented("deleteAttribute: \(name)")
      }
      deleted.insert(name)
    }
    return deleted
  }

  /// `501 NOT_IMPLEMENTED` for a field the engine does not keep (the emulator's phone second
  /// factors), instead of ignoring it.
  static func refuseUnsupported(_ body: FirebaseBody, _ fields: [String])
    throws(IdentityToolkitError)
  {
    for field in fields where body.has(field) {
      throw notImplemented("\(field) is not implemented in authflow serve.")
    }
  }

  /// The emulator's `501` for what it does not implement.
  static func notImplemented(_ message: String) -> IdentityToolkitError {
    IdentityToolkitError(status: 501, message: message, statusName: "NOT_IMPLEMENTED")
  }
}
