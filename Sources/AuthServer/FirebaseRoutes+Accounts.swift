import FirebaseEmulator
import GoTrueEngine
import HTTPServer
import IdentityToolkit

/// Accounts: sign-up, sign-in, lookup, update and deletion, in the emulator's order of checks
/// (`operations.ts`).
extension FirebaseRoutes {
  /// `accounts:signUp` (public: a new user, signed in) and `projects/{id}/accounts` (an admin
  /// making a user, no tokens).
  @Sendable static func signUp(_ call: FirebaseCall) async throws(IdentityToolkitError)
    -> HTTPResponse
  {
    let body = try call.body()
    let emulation = call.emulation
    let kind = "identitytoolkit#SignupNewUserResponse"
    if call.privileged {
      if body.has("idToken"), body.has("localId") {
        throw .badRequest(.unexpectedParameter, "User ID")
      }
      try refuseUnsupported(body, ["phoneNumber", "mfaInfo", "customAttributes"])
      var new = FirebaseNewAccount()
      new.id = try body.string("localId")
      new.email = try body.string("email")
      new.password = try body.nonEmpty("password")
      new.displayName = try body.string("displayName")
      new.photoURL = try body.string("photoUrl")
      new.emailVerified = try body.bool("emailVerified")
      new.disabled = try body.bool("disabled")
      let account = try await emulation.create(new)
      return FirebaseAnswer.json(
        .members([
          "kind": .string(kind), "localId": .string(account.id),
          "displayName": .maybe(account.displayName), "email": .string(account.email),
        ]))
    }
    if body.has("localId") { throw .badRequest(.unexpectedParameter, "User ID") }
    let idToken = try body.nonEmpty("idToken")
    let email = try body.nonEmpty("email")
    let password = try body.nonEmpty("password")
    // Neither: an anonymous sign-up, which the engine does not do (no user without an email).
    guard idToken != nil || email != nil || password != nil else {
      throw .badRequest(.adminOnlyOperation)
    }
    guard let email else { throw .badRequest(.missingEmail) }
    guard let password else { throw .badRequest(.missingPassword) }
    let displayName = try body.string("displayName")
    let session: FirebaseSession
    if let idToken {
      // Linking an email and password to the signed-in user: the emulator's update.
      var changes = FirebaseAccountChanges()
      (changes.email, changes.password, changes.displayName) = (email, password, displayName)
      guard let linked = try await emulation.update(idToken: idToken, changes).1 else {
        throw .badRequest(.invalidIDToken)
      }
      session = linked
    } else {
      session = try await emulation.signUp(
        email: email, password: password, displayName: displayName)
    }
    return call.json(signedIn(session, kind: kind))
  }

  /// `accounts:signInWithPassword`.
  @Sendable static func signIn(_ call: FirebaseCall) async throws(IdentityToolkitError)
    -> HTTPResponse
  {
    let body = try call.body()
    guard let email = try body.string("email") else { throw .badRequest(.missingEmail) }
    let session = try await call.emulation.signIn(
      email: email, password: try body.string("password") ?? "")
    var answer = signedIn(session, kind: "identitytoolkit#VerifyPasswordResponse")
    answer.registered = true
    answer.displayName = nil
    return call.json(answer)
  }

  /// A sign-in's answer: the user's id and email, and the session.
  static func signedIn(_ session: FirebaseSession, kind: String) -> IdentityToolkitSignIn {
    IdentityToolkitSignIn(
      kind: kind, localId: session.account.id, email: session.account.email,
      displayName: session.account.displayName, idToken: session.idToken,
      refreshToken: session.refreshToken, expiresIn: "\(session.expiresIn)")
  }

  /// `accounts:lookup`: the user of an ID token, or (for an admin) users by `localId` and
  /// `email`; `users` is left out when none is found.
  @Sendable static func lookup(_ call: FirebaseCall) async throws(IdentityToolkitError)
    -> HTTPResponse
  {
    let body = try call.body()
    let accounts: [FirebaseAccount]
    if call.privileged {
      if body.has("initialEmail") {
        throw notImplemented("Lookup by initialEmail is not implemented.")
      }
      accounts = try call.emulation.accounts(
        ids: try body.strings("localId"), emails: try body.strings("email"))
    } else {
      guard let idToken = try body.nonEmpty("idToken") else {
        throw .badRequest(.missingIDToken)
      }
      accounts = [try call.emulation.account(idToken: idToken)]
    }
    return call.json(IdentityToolkitLookup(users: accounts.map(FirebaseAnswer.user)))
  }

  /// `accounts:delete`: the user of an ID token, or (for an admin) the user `localId`.
  @Sendable static func delete(_ call: FirebaseCall) async throws(IdentityToolkitError)
    -> HTTPResponse
  {
    let body = try call.body()
    if call.privileged {
      guard let id = try body.nonEmpty("localId") else { throw .badRequest(.missingLocalID) }
      try call.emulation.delete(id: id)
    } else {
      guard let idToken = try body.nonEmpty("idToken") else {
        throw .badRequest(.missingIDToken)
      }
      try call.emulation.deleteAccount(idToken: idToken)
    }
    return FirebaseAnswer.kind("identitytoolkit#DeleteAccountResponse")
  }

  /// `accounts:update`: applies an out-of-band code (``applyCode(_:_:)``), or changes the user
  /// of an ID token, or (for an admin) the user `localId`.
  @Sendable static func update(_ call: FirebaseCall) async throws(IdentityToolkitError)
    -> HTTPResponse
  {
    let body = try call.body()
    for field in ["provider", "upgradeToFederatedLogin"] where body.has(field) {
      throw notImplemented("\(field) is not implemented yet.")
    }
    if call.privileged {
      guard try body.nonEmpty("localId") != nil else { throw .badRequest(.missingLocalID) }
    } else {
      let idToken = try body.nonEmpty("idToken")
      let code = try body.nonEmpty("oobCode")
      guard idToken != nil || code != nil else {
        throw .badRequest(.invalidRequestType, "Unsupported request parameters.")
      }
      if body.has("customAttributes") { throw .badRequest(.insufficientPermission) }
    }
    if let applied = try applyCode(call, body) { return applied }
    try refuseUnsupported(
      body, ["customAttributes", "phoneNumber", "mfa", "linkProviderUserInfo", "createdAt"])
    var changes = FirebaseAccountChanges()
    for attribute in try body.strings("deleteAttribute") {
      switch attribute {
      case "DISPLAY_NAME": changes.deleteDisplayName = true
      case "PHOTO_URL": changes.deletePhotoURL = true
      case "PASSWORD": changes.deletePassword = true
      case "USER_ATTRIBUTE_NAME_UNSPECIFIED": continue
      default: throw notImplemented("deleteAttribute: \(attribute)")
      }
    }
    for provider in try body.strings("deleteProvider") where provider != "phone" {
      throw notImplemented("deleteProvider: \(provider)")
    }
    let emulation = call.emulation
    changes.email = try body.nonEmpty("email")
    changes.password = try body.nonEmpty("password")
    changes.displayName = try body.string("displayName")
    changes.photoURL = try body.string("photoUrl")
    changes.emailVerified = try body.bool("emailVerified")
    changes.disabled = try body.bool("disableUser")
    changes.validSince = try body.integer("validSince")
    if call.privileged, let id = try body.nonEmpty("localId") {
      return call.json(FirebaseAnswer.updated(try await emulation.update(id: id, changes)))
    }
    let (account, session) = try await emulation.update(
      idToken: try body.nonEmpty("idToken") ?? "", changes)
    return call.json(FirebaseAnswer.updated(account, session: session))
  }

  /// `501 NOT_IMPLEMENTED` for a field the engine does not keep (phone numbers, custom
  /// claims, multi-factor), instead of ignoring it.
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
