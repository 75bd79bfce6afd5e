import AccountStore
import GoTrue
import GoTrueEngine
import IdentityToolkit

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A request for an out-of-band code (`accounts:sendOobCode`), its fields as sent.
package struct FirebaseCodeRequest: Equatable, Sendable {
  /// `requestType` by name (`PASSWORD_RESET`); an integer on the wire names one of these.
  package var type: String?
  /// `email`.
  package var email: String?
  /// `newEmail`, for `VERIFY_AND_CHANGE_EMAIL`.
  package var newEmail: String?
  /// `idToken`.
  package var idToken: String?
  /// `continueUrl`: where the link leads once used.
  package var continueURL: String?
  /// `returnOobLink`: answer the code and its link instead of mailing them (admins only).
  package var returnLink = false
  /// Whether the caller is an admin (`Bearer owner`).
  package var privileged = false

  /// A request with nothing set.
  package init() {}
}

/// What `sendOobCode` answers: the address, and the code for an admin who asked for it.
package struct FirebaseCodeSent: Equatable, Sendable {
  /// The address the code concerns, lowercased.
  package var email: String
  /// The code and its link; `nil` when none was made (an unknown address, with improved
  /// email privacy).
  package var code: FirebaseOutOfBandCode?

  /// An answer with the given parts.
  package init(email: String, code: FirebaseOutOfBandCode?) {
    self.email = email
    self.code = code
  }
}

extension FirebaseEmulation {
  /// `accounts:sendOobCode`, every check in the emulator's order: `MISSING_REQ_TYPE`,
  /// `INSUFFICIENT_PERMISSION` (`returnOobLink` without admin rights), `INVALID_CONTINUE_URI`
  /// (and, as production, `UNAUTHORIZED_DOMAIN` where the server's links may not lead), then
  /// the type's own (`RECOVER_EMAIL` and the deprecated types are `501`). The code is mailed
  /// unless `returnOobLink` asks for it in the answer; either way it is listed.
  package func sendCode(_ request: FirebaseCodeRequest) throws(IdentityToolkitError)
    -> FirebaseCodeSent
  {
    guard let name = request.type, !name.isEmpty, name != "OOB_REQ_TYPE_UNSPECIFIED" else {
      throw .badRequest(.missingRequestType)
    }
    if request.returnLink, !request.privileged { throw .badRequest(.insufficientPermission) }
    let continueURL = Self.truthy(request.continueURL)
    if let continueURL { try checkContinueURL(continueURL) }
    guard let type = FirebaseCodeType(rawValue: name) else { throw Self.notImplemented(name) }
    let privacy = improvedEmailPrivacy
    let (email, issued) = try write { database, now -> (String, IssuedCode?) in
      guard var record = try record(type, request, privacy: privacy, database, now: now) else {
        return (EmailRules.normalized(request.email ?? ""), nil)
      }
      record.continueURL = continueURL
      return (record.email, try issue(record, mailed: !request.returnLink, database, now: now))
    }
    publish(issued.map { [$0] } ?? [])
    return FirebaseCodeSent(email: email, code: issued?.listed)
  }

  /// The code `request` asks for, checked as the emulator checks each type; `nil` for a
  /// password reset of an unknown address under improved email privacy.
  private func record(
    _ type: FirebaseCodeType, _ request: FirebaseCodeRequest, privacy: Bool,
    _ database: EngineAccounts, now: Int64
  ) throws -> CodeRecord? {
    let byAdmin = request.returnLink && Self.truthy(request.idToken) == nil
    switch type {
    case .emailSignIn:
      guard let email = Self.truthy(request.email) else {
        throw IdentityToolkitError.badRequest(.missingEmail)
      }
      // Beyond the emulator: the account it may make must have an address both surfaces take.
      return CodeRecord(type: type, email: try validatedEmail(email))
    case .passwordReset:
      guard let email = Self.truthy(request.email) else {
        throw IdentityToolkitError.badRequest(.missingEmail)
      }
      guard let user = try liveUser(email: EmailRules.normalized(email), database) else {
        if privacy { return nil }
        throw IdentityToolkitError.badRequest(.emailNotFound)
      }
      return CodeRecord(type: type, email: user.email, userID: user.id)
    case .verifyEmail:
      let user = try sender(of: request, byAdmin: byAdmin, database, now: now)
      return CodeRecord(type: type, email: user.email, userID: user.id)
    case .verifyAndChangeEmail:
      guard let rawNewEmail = Self.truthy(request.newEmail) else {
        throw IdentityToolkitError.badRequest(.missingNewEmail)
      }
      let newEmail = EmailRules.normalized(rawNewEmail)
      if !byAdmin, Self.truthy(request.idToken) == nil {
        throw IdentityToolkitError.badRequest(.missingIDToken)
      }
      let user = try sender(of: request, byAdmin: byAdmin, database, now: now)
      if !byAdmin {
        let claims = try verifiedUser(idToken: request.idToken ?? "", database, now: now).claims
        try checkCredentialChange(
          of: user, claims: claims, changesPassword: false, database, now: now)
      }
      if try liveUser(email: newEmail, database) != nil {
        throw IdentityToolkitError.badRequest(.emailExists)
      }
      // Beyond the emulator, which takes any new address: one both surfaces take.
      guard (try? validatedEmail(rawNewEmail)) != nil else {
        throw IdentityToolkitError.badRequest(.invalidNewEmail)
      }
      return CodeRecord(type: type, email: user.email, newEmail: newEmail, userID: user.id)
    case .recoverEmail:
      throw Self.notImplemented(type.rawValue)
    }
  }

  /// The account a verification is for: by `email` for an admin's `returnOobLink` without an
  /// ID token (`MISSING_EMAIL`, `USER_NOT_FOUND`), else the ID token's user (`idToken || ""`,
  /// so none is `INVALID_ID_TOKEN`), who needs an email (`MISSING_EMAIL`).
  private func sender(
    of request: FirebaseCodeRequest, byAdmin: Bool, _ database: EngineAccounts, now: Int64
  ) throws -> UserRecord {
    if byAdmin {
      guard let email = Self.truthy(request.email) else {
        throw IdentityToolkitError.badRequest(.missingEmail)
      }
      guard let user = try liveUser(email: EmailRules.normalized(email), database) else {
        throw IdentityToolkitError.badRequest(.userNotFound)
      }
      return user
    }
    let user = try verifiedUser(idToken: request.idToken ?? "", database, now: now).user
    guard !user.email.isEmpty else { throw IdentityToolkitError.badRequest(.missingEmail) }
    return user
  }

  /// A `continueUrl` must be absolute, and lead to one of the project's authorized domains as
  /// a new Firebase project has them (`localhost`, `{project}.firebaseapp.com`,
  /// `{project}.web.app`; loopback addresses too, which are this machine as `localhost` is), or
  /// where the server's own links may lead (the site URL, the redirect allow list).
  private func checkContinueURL(_ url: String) throws(IdentityToolkitError) {
    guard let components = URLComponents(string: url), components.scheme?.isEmpty == false,
      components.host?.isEmpty == false
    else {
      throw .badRequest(
        .invalidContinueURI, "((expected an absolute URI with valid scheme and host))")
    }
    // The domain as the browser that follows the link will read it; a URL it could read
    // otherwise leads nowhere authorized.
    if let browser = BrowserURL(url), browser.isHTTP,
      browser.isLoopback
        || ["\(projectID).firebaseapp.com", "\(projectID).web.app"].contains(browser.host)
    {
      return
    }
    guard engine.allowedRedirect(url) == url else {
      throw .badRequest("UNAUTHORIZED_DOMAIN", "Domain not allowlisted by project")
    }
  }

  /// The account with `email` (lowercased), unless GoTrue's admin API soft-deleted it.
  func liveUser(email: String, _ database: EngineAccounts) throws -> UserRecord? {
    guard !email.isEmpty, let user = try database.user(email: email), user.deletedAt == nil
    else { return nil }
    return user
  }

  /// The emulator's `501` for a type of code it makes no request for, or spends elsewhere.
  static func notImplemented(_ type: String) -> IdentityToolkitError {
    IdentityToolkitError(status: 501, message: type, statusName: "NOT_IMPLEMENTED")
  }

  /// `text` when the emulator's JavaScript would find it truthy: there and not empty.
  static func truthy(_ text: String?) -> String? {
    guard let text, !text.isEmpty else { return nil }
    return text
  }
}
