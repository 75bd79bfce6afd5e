/// The second step of a sign-in, and Secure Token's refresh.
extension IdentityToolkitRequest {
  /// `accounts/mfaSignIn:finalize`: the second step of a sign-in, with a TOTP code.
  public struct FinalizeSecondFactor: IdentityToolkitBody {
    /// What the first step answered.
    public var mfaPendingCredential: String?
    /// The factor the code is from.
    public var mfaEnrollmentId: String?
    /// The TOTP factor's code.
    public var totpVerificationInfo: TOTPVerification?

    /// A TOTP factor's answer.
    public struct TOTPVerification: Codable, Equatable, Sendable {
      /// The six digits.
      public var verificationCode: String?

      /// The answer `verificationCode`.
      public init(verificationCode: String? = nil) {
        self.verificationCode = verificationCode
      }
    }

    /// A second step with the given members.
    public init(
      mfaPendingCredential: String? = nil, mfaEnrollmentId: String? = nil,
      totpVerificationInfo: TOTPVerification? = nil
    ) {
      self.mfaPendingCredential = mfaPendingCredential
      self.mfaEnrollmentId = mfaEnrollmentId
      self.totpVerificationInfo = totpVerificationInfo
    }
  }

  /// Secure Token's `token`: a refresh grant, sent as a form (`grant_type`, `refresh_token`)
  /// or as JSON. A server reads the refresh token first, as the emulator does.
  public struct Token: IdentityToolkitBody {
    /// `refresh_token`.
    public var grantType: String?
    /// The refresh token.
    public var refreshToken: String?

    /// A grant with the given members.
    public init(grantType: String? = nil, refreshToken: String? = nil) {
      self.grantType = grantType
      self.refreshToken = refreshToken
    }

    /// Reads the refresh token, then the grant's type.
    public init(from decoder: any Decoder) throws {
      let members = try decoder.container(keyedBy: CodingKeys.self)
      refreshToken = try members.decodeIfPresent(String.self, forKey: .refreshToken)
      grantType = try members.decodeIfPresent(String.self, forKey: .grantType)
    }

    enum CodingKeys: String, CodingKey {
      case grantType = "grant_type"
      case refreshToken = "refresh_token"
    }
  }
}
