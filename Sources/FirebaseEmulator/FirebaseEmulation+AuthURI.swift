import AuthCrypto
import GoTrue
import GoTrueEngine
import IdentityToolkit

/// `accounts:createAuthUri`: how an email signs in, which the client SDKs ask before they
/// sign in (`fetchSignInMethodsForEmail`).
extension FirebaseEmulation {
  /// `accounts:createAuthUri` for `identifier`, checked in the emulator's order: a
  /// `providerId` (identity providers are not served, `501`), `MISSING_IDENTIFIER`,
  /// `MISSING_CONTINUE_URI`, `INVALID_IDENTIFIER` (not the emulator's email form),
  /// `INVALID_CONTINUE_URI` (not an absolute URL). The session id is `sessionID` when one is
  /// sent, else 27 random letters and digits; with improved email privacy nothing else is said.
  package func authURI(
    identifier: String?, continueURI: String?, sessionID: String?, providerID: String?
  ) throws(IdentityToolkitError) -> FirebaseAuthURI {
    if let providerID, !providerID.isEmpty {
      throw IdentityToolkitError(
        status: 501, message: "Sign-in with IDP is not yet supported.",
        statusName: "NOT_IMPLEMENTED")
    }
    guard let identifier, !identifier.isEmpty else { throw .badRequest("MISSING_IDENTIFIER") }
    guard let continueURI, !continueURI.isEmpty else {
      throw .badRequest("MISSING_CONTINUE_URI")
    }
    guard FirebaseRules.isEmailForm(identifier) else { throw .badRequest("INVALID_IDENTIFIER") }
    guard FirebaseRules.isAbsoluteURI(continueURI) else {
      throw .badRequest(.invalidContinueURI)
    }
    let session = sessionID.flatMap { $0.isEmpty ? nil : $0 } ?? randomSessionID()
    guard !improvedEmailPrivacy else { return FirebaseAuthURI(sessionID: session, methods: nil) }
    return FirebaseAuthURI(sessionID: session, methods: try signInMethods(of: identifier))
  }

  /// How the account of `email` signs in: `password` among the providers when the account
  /// signs in by email at all, and as methods `password` (it has one) and `emailLink` (it
  /// signed in by link). With one account per email (the default) the emulator lists every
  /// provider of the account found, so its linked ones (`google.com`, as imported) come first,
  /// each a provider and a method; with `allowDuplicateEmails` only the email's.
  func signInMethods(of email: String) throws(IdentityToolkitError) -> FirebaseSignInMethods {
    try read { database, _ in
      guard let user = try database.user(email: EmailRules.normalized(email)),
        user.deletedAt == nil
      else { return FirebaseSignInMethods(registered: false, providers: [], methods: []) }
      let linked =
        allowDuplicateEmails ? [] : try database.linkedIdentities(ofUser: user.id).map(\.provider)
      let hasPassword = user.passwordHash != engine.secrets.decoyHash
      guard hasPassword || user.emailLinkSignin else {
        return FirebaseSignInMethods(registered: true, providers: linked, methods: linked)
      }
      return FirebaseSignInMethods(
        registered: true, providers: linked + ["password"],
        methods: linked + (hasPassword ? ["password"] : [])
          + (user.emailLinkSignin ? ["emailLink"] : []))
    }
  }

  /// 27 letters and digits, as the emulator's `randomId(27)`.
  private func randomSessionID() -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    return String(
      (0..<27).map { _ in alphabet[Int(engine.random.uniform(below: UInt32(alphabet.count)))] })
  }
}

/// What `accounts:createAuthUri` answers.
package struct FirebaseAuthURI: Equatable, Sendable {
  /// The session id sent, or a new one.
  package var sessionID: String
  /// How the email signs in; `nil` with improved email privacy, which says nothing of it.
  package var methods: FirebaseSignInMethods?

  /// An answer of `sessionID` and `methods`.
  package init(sessionID: String, methods: FirebaseSignInMethods?) {
    self.sessionID = sessionID
    self.methods = methods
  }
}

/// Whether an email has an account, and how it signs in.
package struct FirebaseSignInMethods: Equatable, Sendable {
  /// Whether an account has the email (`registered`).
  package var registered: Bool
  /// Its providers (`allProviders`): `password` for email sign-in of either kind.
  package var providers: [String]
  /// Its sign-in methods (`signinMethods`): `password`, `emailLink`.
  package var methods: [String]

  /// The methods of an email that is `registered` or not.
  package init(registered: Bool, providers: [String], methods: [String]) {
    self.registered = registered
    self.providers = providers
    self.methods = methods
  }
}
