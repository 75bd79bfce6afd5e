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
      expiresAt: Self.expiry(of: answer.expiresIn, claims: claims, now: now),
      expiresIn: Self.lifetime(answer.expiresIn), tokenType: Self.firebaseTokenType)
  }

  /// The token type of Firebase's ID tokens, as Secure Token names it (`token_type`).
  public static let firebaseTokenType = "Bearer"

  /// Seconds an ID token lives, from Firebase's string (`"3600"`); an hour when unreadable.
  static func lifetime(_ expiresIn: String) -> Int {
    Int(expiresIn).flatMap { (1...86_400).contains($0) ? $0 : nil } ?? defaultLifetime
  }

  /// This session renewed by Secure Token's answer at `now`: the new ID token's claims replace
  /// what they tell (`email_verified` among them, which is how a reload re-checks it).
  public func renewed(by answer: SecureTokenResponse, now: Date) -> AuthSession {
    renewed(
      idToken: answer.idToken, refreshToken: answer.refreshToken, expiresIn: answer.expiresIn,
      tokenType: answer.tokenType.isEmpty ? Self.firebaseTokenType : answer.tokenType, now: now)
  }

  /// This session with the tokens an answer gave at `now` (Secure Token's, or the new ones of
  /// `accounts:update` after a password change).
  func renewed(
    idToken: String, refreshToken: String, expiresIn: String,
    tokenType: String = firebaseTokenType, now: Date
  ) -> AuthSession {
    let claims = FirebaseIDTokenClaims(token: idToken)
    var user = self.user
    if let claims {
      user.id = claims.sub
      user.email = claims.email ?? user.email
      user.emailVerified = claims.emailVerified ?? user.emailVerified
      if let name = claims.name, !name.isEmpty { user.metadata[AuthUser.displayNameKey] = name }
    }
    return AuthSession(
      user: user, accessToken: idToken, refreshToken: refreshToken,
      expiresAt: Self.expiry(of: expiresIn, claims: claims, now: now),
      expiresIn: Self.lifetime(expiresIn), tokenType: tokenType)
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
