import AuthFlow
import IdentityToolkit

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension AuthSession {
  /// The app's session for a sign-in or signup answer received at `now`: the user from the ID
  /// token's claims (read, not checked: a client cannot check Google's signature), the
  /// answer's fields where the token says nothing.
  public init(firebase answer: IdentityToolkitSignIn, now: Date) {
    let claims = FirebaseIDTokenClaims(token: answer.idToken)
    var metadata: [String: String] = [:]
    if let name = claims?.name ?? answer.displayName, !name.isEmpty {
      metadata[AuthUser.displayNameKey] = name
    }
    self.init(
      user: AuthUser(
        id: claims?.sub ?? answer.localId, email: claims?.email ?? answer.email ?? "",
        emailVerified: claims?.emailVerified ?? false, metadata: metadata),
      accessToken: answer.idToken, refreshToken: answer.refreshToken,
      expiresAt: Self.expiry(of: answer.expiresIn, claims: claims, now: now))
  }

  /// This session renewed by Secure Token's answer at `now`: the new ID token's claims replace
  /// what they tell (`email_verified` among them, which is how a reload re-checks it).
  public func renewed(by answer: SecureTokenResponse, now: Date) -> AuthSession {
    let claims = FirebaseIDTokenClaims(token: answer.idToken)
    var user = self.user
    if let claims {
      user.id = claims.sub
      user.email = claims.email ?? user.email
      user.emailVerified = claims.emailVerified ?? user.emailVerified
      if let name = claims.name, !name.isEmpty { user.metadata[AuthUser.displayNameKey] = name }
    }
    return AuthSession(
      user: user, accessToken: answer.idToken, refreshToken: answer.refreshToken,
      expiresAt: Self.expiry(of: answer.expiresIn, claims: claims, now: now))
  }

  /// When the ID token stops being accepted: `now` plus `expiresIn`, as the Firebase SDKs
  /// count it (so a device clock that is off does not matter), else the token's `exp`.
  static func expiry(of expiresIn: String, claims: FirebaseIDTokenClaims?, now: Date) -> Date {
    if let seconds = Int(expiresIn), (1...86_400).contains(seconds) {
      return now.addingTimeInterval(TimeInterval(seconds))
    }
    if let exp = claims?.exp { return Date(timeIntervalSince1970: TimeInterval(exp)) }
    return now.addingTimeInterval(3_600)
  }
}

extension AuthUser {
  /// The metadata key of Firebase's display name (seed 003's "First Last").
  public static let displayNameKey = "display_name"
}
