import GoTrue

/// One of GoTrue's request limiters (`internal/api/apilimiter`). Each keeps its own bucket per
/// client, so a client's sign-ups do not spend its recoveries. The raw values number the cases
/// from 0, in order, for the limiter's table of them.
enum RequestLimit: Int, CaseIterable, Sendable {
  /// `POST /signup` with an email or a phone (`RATE_LIMIT_OTP`).
  case signup
  /// `POST /recover` (`RATE_LIMIT_OTP`).
  case recover
  /// `POST /resend` (`RATE_LIMIT_OTP`).
  case resend
  /// `POST /magiclink` (`RATE_LIMIT_OTP`).
  case magicLink
  /// `POST /otp` (`RATE_LIMIT_OTP`).
  case otp
  /// `PUT /user`, after the bearer token is checked (`RATE_LIMIT_OTP`).
  case updateUser
  /// `POST /signup` with neither email nor phone, once anonymous sign-ins are on
  /// (`RATE_LIMIT_ANONYMOUS_USERS`).
  case anonymousSignIn
  /// `POST /token` with the `password`, `refresh_token`, `pkce` or `id_token` grant, once the
  /// grant is known (`RATE_LIMIT_TOKEN_REFRESH`).
  case token
  /// `GET` and `POST /verify` (`RATE_LIMIT_VERIFY`).
  case verify
  /// `POST /factors/{id}/challenge`, after the factor is loaded
  /// (`MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY`).
  case factorChallenge
  /// `POST /factors/{id}/verify`, after the factor is loaded; a bucket apart from the
  /// challenges' (`MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY`).
  case factorVerify
  /// `POST /token` with the `web3` grant, once the grant is known (`RATE_LIMIT_WEB3`).
  case web3
}

/// The shape of a limiter's buckets, as GoTrue builds its tollbooth limiters: a bucket starts
/// full with `burst` requests, gains `perSecond` a second up to `burst`, and is thrown away
/// (full again) `lifetime` seconds after it was made.
struct BucketShape: Equatable, Sendable {
  /// Requests regained per second.
  var perSecond: Double
  /// Requests a full bucket holds.
  var burst: Double
  /// Seconds from a bucket's making to its replacement by a full one (tollbooth's TTL).
  var lifetime: Double
}

extension RouteContext {
  /// Spends one request of `limit` for the request's client, or throws GoTrue's 429
  /// `over_request_rate_limit`. A request from no client the server can tell apart (no
  /// limiting header configured, or the header missing) is not limited, as in GoTrue.
  ///
  /// Call it where GoTrue's router or handler applies the limiter: before the body is read for
  /// middleware limiters (`/recover`, `/verify`), after what runs before it in GoTrue (the
  /// body on `/signup`, the grant on `/token`, authentication on `PUT /user` and `/factors`).
  func limit(_ limit: RequestLimit) throws(GoTrueFailure) {
    guard let key = limiter.key(for: request) else { return }
    guard limiter.spend(limit, key: key) else { throw RequestLimiter.limitReached }
  }

  /// Whether this request is counted against a client's budgets: a route that must check
  /// something first only when limiting (as `PUT /user` checks its token) asks this.
  var isLimited: Bool { limiter.key(for: request) != nil }
}
