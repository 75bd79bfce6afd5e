/// `POST /factors`' answer for a TOTP factor (`EnrollFactorResponse`): the new, unverified
/// factor and, this once, its secret.
public struct GoTrueFactorEnrollment: Equatable, Sendable, Codable {
  /// The factor's UUID.
  public var id: String
  /// `totp`.
  public var type: String
  /// The name the user gave it (GoTrue always sends the key, empty or not).
  public var friendlyName: String
  /// What an authenticator app needs.
  public var totp: TOTPSetup?

  /// An enrolment with the given parts.
  public init(id: String, type: String = "totp", friendlyName: String, totp: TOTPSetup?) {
    self.id = id
    self.type = type
    self.friendlyName = friendlyName
    self.totp = totp
  }

  /// A TOTP factor's setup (`TOTPObject`): the secret as an SVG QR code, as base32 text, and
  /// as the `otpauth://` URI both carry.
  public struct TOTPSetup: Equatable, Sendable, Codable {
    /// The QR code of ``uri``, as SVG text (clients prefix `data:image/svg+xml;utf-8,`).
    public var qrCode: String
    /// The secret in unpadded base32.
    public var secret: String
    /// `otpauth://totp/<issuer>:<email>?algorithm=SHA1&digits=6&issuer=…&period=30&secret=…`.
    public var uri: String

    /// A setup with the given parts.
    public init(qrCode: String, secret: String, uri: String) {
      self.qrCode = qrCode
      self.secret = secret
      self.uri = uri
    }

    enum CodingKeys: String, CodingKey {
      case secret, uri
      case qrCode = "qr_code"
    }
  }

  enum CodingKeys: String, CodingKey {
    case id, type, totp
    case friendlyName = "friendly_name"
  }
}

/// `POST /factors/{id}/challenge`'s answer (`ChallengeFactorResponse`).
public struct GoTrueFactorChallenge: Equatable, Sendable, Codable {
  /// The challenge's UUID, to verify a code against.
  public var id: String
  /// The factor's type, `totp`.
  public var type: String
  /// When the challenge stops being usable, in Unix seconds.
  public var expiresAt: Int

  /// A challenge with the given parts.
  public init(id: String, type: String = "totp", expiresAt: Int) {
    self.id = id
    self.type = type
    self.expiresAt = expiresAt
  }

  enum CodingKeys: String, CodingKey {
    case id, type
    case expiresAt = "expires_at"
  }
}

/// `DELETE /factors/{id}`'s answer (`UnenrollFactorResponse`): the removed factor's id.
public struct GoTrueUnenrolledFactor: Equatable, Sendable, Codable {
  /// The factor's UUID.
  public var id: String

  /// The answer for factor `id`.
  public init(id: String) { self.id = id }
}
