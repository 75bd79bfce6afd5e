import AccountStore
import AuthCrypto
import GoTrue
import GoTrueEngine
import IdentityToolkit

/// Session cookies (`projects/{project}:createSessionCookie`, the emulator's
/// `createSessionCookie`): a signed-in user's ID token, re-issued for a server to keep in a
/// cookie for up to two weeks.
extension FirebaseEmulation {
  /// The shortest and longest lives a cookie may be given, in seconds.
  static let sessionCookieLives: ClosedRange<Int64> = (5 * 60)...(14 * 24 * 60 * 60)

  /// Where session cookies say they come from (what the Admin SDKs check).
  package var sessionCookieIssuer: String { "https://session.firebase.google.com/\(projectID)" }

  /// A cookie of `idToken`'s claims, issued now for `validDuration` seconds (two weeks when
  /// absent or 0): `MISSING_ID_TOKEN`, `INVALID_DURATION`, then the token's own checks
  /// (``verifiedUser(idToken:_:now:)``). Signed as ID tokens are, with the store's secret.
  package func createSessionCookie(idToken: String?, validDuration: Int64?)
    throws(IdentityToolkitError) -> String
  {
    guard let idToken = idToken.nonEmpty else {
      throw IdentityToolkitError.badRequest(.missingIDToken)
    }
    let life = validDuration.flatMap { $0 == 0 ? nil : $0 } ?? Self.sessionCookieLives.upperBound
    guard Self.sessionCookieLives.contains(life) else {
      throw IdentityToolkitError.badRequest(.invalidDuration)
    }
    return try read { database, now in
      var claims = try verifiedUser(idToken: idToken, database, now: now).claims
      let issuedAt = now / 1_000
      claims["iat"] = .number(Double(issuedAt))
      claims["exp"] = .number(Double(issuedAt + life))
      claims["iss"] = .string(sessionCookieIssuer)
      return JSONWebToken.sign(claims, secret: engine.secrets.jwt)
    }
  }
}
