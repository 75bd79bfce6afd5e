#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The session's life after sign-in: renewing its tokens when due, restoring it at start, and
/// (seed 003) checking again whether its address was verified.
extension AuthViewModel {
  /// How close to its expiry an access token is renewed before use, in seconds.
  public static let renewalMargin: TimeInterval = 60

  /// A valid access token for the API the app calls (seed 003's `getCurrentUserToken`, the
  /// `tokenProvider`): the session's, renewed first when it expires within `margin` seconds.
  /// Throws ``AuthError/sessionExpired`` when no one is signed in or the session was revoked,
  /// and the renewal's failure (offline, server) when an expired token could not be renewed.
  public func currentAccessToken(margin: TimeInterval = renewalMargin) async throws(AuthError)
    -> String
  {
    let failure = await renewSessionIfDue(margin: margin)
    guard let session = state.session else { throw .sessionExpired }
    guard !session.isExpired(at: now()) else {
      throw failure ?? (state.network == .offline ? .networkUnavailable : .sessionExpired)
    }
    return session.accessToken
  }

  /// Renews the session when its access token expires within `margin` seconds (and the
  /// network is up), so a session on show is never an expired one; a revoked session ends
  /// with one message, on the entry screen. Returns why a renewal failed, if one did.
  @discardableResult
  public func renewSessionIfDue(margin: TimeInterval = renewalMargin) async -> AuthError? {
    guard let session = state.session, state.network == .online, state.inFlight == nil,
      session.isExpired(at: now(), leeway: margin)
    else { return nil }
    if case .failed(let error) = await renew() { return error }
    return nil
  }

  /// Renews the session's tokens; a revoked session signs the user out with an explanation.
  /// Offline, nothing is asked (``AuthOutcome/offline``).
  @discardableResult
  public func refreshSession() async -> AuthOutcome {
    await renew()
  }

  /// Whether the screen waits for the signed-in user to verify their address: the session's
  /// email is unverified and a banner asks them to open the emailed link (seed 003's
  /// verification screen, which "periodically checks isEmailVerified").
  public var awaitsEmailVerification: Bool {
    guard let user = state.session?.user, !user.emailVerified, state.inFlight == nil else {
      return false
    }
    return state.banner.map(Self.verificationBanners.contains) ?? false
  }

  private static let verificationBanners: Set<AuthBanner> = [
    .verificationSent, .verificationResent, .verificationNotSent,
  ]

  /// Checks again, quietly, whether the user has verified their address, where the backend
  /// can tell without renewing the session (``AuthService/reloadUser(_:)``). When they have,
  /// renews the session so its tokens carry the verification and says "Your email is
  /// verified."; otherwise nothing changes and no event is recorded (a poll is not the user's
  /// doing). Offline, or when the check fails, it waits for the next one. Returns whether the
  /// address was found verified.
  @discardableResult
  public func recheckEmailVerification() async -> Bool {
    guard awaitsEmailVerification, state.network == .online else { return false }
    await renewSessionIfDue()
    guard awaitsEmailVerification, let session = state.session,
      let user = try? await send({ service throws(AuthError) in
        try await service.reloadUser(session)
      }), user.emailVerified,
      awaitsEmailVerification, state.session?.refreshToken == session.refreshToken
    else { return false }
    if case .failed = await renew() {
      // Not renewed: the error says why, and the next check tries again.
    } else if state.session != nil {
      // The renewed tokens carry the verification; the user is verified either way.
      state.session?.user.emailVerified = true
      statusBanner = .emailVerified
    }
    return true
  }

  /// Renews the session through ``perform``; a revoked or ended session ends here. Returns
  /// what it came to (``AuthOutcome/failed(_:)`` only for a refusal on show).
  @discardableResult
  func renew() async -> AuthOutcome {
    guard let session = state.session else { return .notRun }
    return await perform(
      .refresh,
      call: { () async throws(AuthError) in
        try await self.send({ service throws(AuthError) in try await service.refresh(session) })
      },
      keepsSession: { $0 },
      onSuccess: { self.state.session = $0 },
      onFailure: { error in
        self.endSessionIfExpired(by: error)
        self.errorMessage = error.message
      })
  }

  /// Restores the session an earlier run saved, if the backend still accepts it.
  @discardableResult
  public func restoreSession() async -> AuthOutcome {
    guard state.session == nil else { return .notRun }
    return await perform(
      .restoreSession, needsNetwork: false,
      call: { () async throws(AuthError) in
        try await self.send({ service throws(AuthError) in try await service.restoreSession() })
      },
      keepsSession: { $0 },
      success: { $0 == nil ? .done : .signedIn },
      onSuccess: { self.state.session = $0 },
      onFailure: { error in self.errorMessage = error.message })
  }
}
