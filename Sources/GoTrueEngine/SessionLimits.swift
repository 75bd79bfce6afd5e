import GoTrue

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// GoTrue's limits on how long a session lasts (`conf.SessionsConfiguration`): both off unless
/// set, as in GoTrue. A session past one is not deleted; its refresh token is refused, and its
/// access token lives to its `exp` (GoTrue's bearer routes do not check the limits).
public struct SessionLimits: Equatable, Sendable {
  /// Seconds a session lasts from its sign-in, however much it is used
  /// (`GOTRUE_SESSIONS_TIMEBOX`).
  public var timebox: TimeInterval?
  /// Seconds a session lasts without a refresh (`GOTRUE_SESSIONS_INACTIVITY_TIMEOUT`).
  public var inactivityTimeout: TimeInterval?

  /// Limits of `timebox` and `inactivityTimeout` seconds; `nil` for none.
  public init(timebox: TimeInterval? = nil, inactivityTimeout: TimeInterval? = nil) {
    self.timebox = timebox
    self.inactivityTimeout = inactivityTimeout
  }

  /// GoTrue's answer to a refresh of a session begun at `createdAt` and last refreshed at
  /// `refreshedAt` (Unix milliseconds), at `now`; `nil` while the session lasts. The order and
  /// the words are `models.Session.CheckValidity` and `tokens.RefreshTokenGrant`'s: past the
  /// timebox first, then inactive; "after" is strictly after.
  func refusal(createdAt: Int64, refreshedAt: Int64, now: Int64) -> GoTrueAPIError? {
    if let timebox, timebox > 0, now > createdAt + Self.milliseconds(timebox) {
      return GoTrueAPIError(
        status: 400, code: .sessionExpired, message: "Invalid Refresh Token: Session Expired")
    }
    if let inactivityTimeout, inactivityTimeout > 0,
      now > max(refreshedAt, createdAt) + Self.milliseconds(inactivityTimeout)
    {
      return GoTrueAPIError(
        status: 400, code: .sessionExpired,
        message: "Invalid Refresh Token: Session Expired (Inactivity)")
    }
    return nil
  }

  private static func milliseconds(_ seconds: TimeInterval) -> Int64 {
    Int64((seconds * 1_000).rounded())
  }
}
