#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// How the engine does multi-factor authentication; the defaults are GoTrue's
/// (`conf/configuration.go`, `MFAConfiguration`). Only TOTP factors exist here: phone and
/// WebAuthn factors answer as GoTrue does with them off (its default).
public struct MFASettings: Equatable, Sendable {
  /// Users may enrol TOTP factors (`MFA_TOTP_ENROLL_ENABLED`, on).
  public var totpEnrollEnabled = true
  /// TOTP factors may be challenged and verified (`MFA_TOTP_VERIFY_ENABLED`, on).
  public var totpVerifyEnabled = true
  /// The most factors, verified or not, one user may have (`MFA_MAX_ENROLLED_FACTORS`, 10).
  public var maxEnrolledFactors = 10
  /// The most verified factors one user may have (`MFA_MAX_VERIFIED_FACTORS`, 10).
  public var maxVerifiedFactors = 10
  /// Seconds a challenge can be answered (`MFA_CHALLENGE_EXPIRY_DURATION`: 300, and GoTrue
  /// raises anything shorter to 300).
  public var challengeExpiry: TimeInterval = 300 {
    didSet { challengeExpiry = max(challengeExpiry, Self.shortestExpiry) }
  }
  /// Seconds an unverified factor that was never challenged is kept before the next enrolment
  /// removes it (`MFA_FACTOR_EXPIRY_DURATION`: 300 s, and no shorter).
  public var factorExpiry: TimeInterval = 300 {
    didSet { factorExpiry = max(factorExpiry, Self.shortestExpiry) }
  }

  /// The shortest challenge and factor lifetimes GoTrue takes.
  public static let shortestExpiry: TimeInterval = 300

  /// GoTrue's defaults.
  public init() {}
}
