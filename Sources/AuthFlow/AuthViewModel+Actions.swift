#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension AuthViewModel {
  /// Sends the signed-in user's verification email again (seed 003: a screen that lets the
  /// user resend it while `isEmailVerified` is false).
  @discardableResult
  public func resendVerification() async -> AuthOutcome {
    guard let email = state.session?.user.email else { return .notRun }
    return await perform(
      .resendConfirmation,
      call: { () async throws(AuthError) in
        try await self.send({ service throws(AuthError) in
          try await service.resendConfirmation(email: email)
        })
      },
      onSuccess: { _ in self.statusBanner = .verificationResent })
  }

  /// Sends the confirmation email again for the address in the email field.
  @discardableResult
  public func resendConfirmation() async -> AuthOutcome {
    let email = AuthValidation.normalizedEmail(state.form.email)
    return await perform(
      .resendConfirmation, validate: { AuthValidation.checkEmail(email) },
      call: { () async throws(AuthError) in
        try await self.send({ service throws(AuthError) in
          try await service.resendConfirmation(email: email)
        })
      },
      onSuccess: { _ in self.statusBanner = .confirmationResent })
  }

  /// Ends the session; the form is cleared and the entry screen shown, even if the backend
  /// cannot be reached. Offline, no call is attempted (seed 002's offline rule): the device
  /// forgets the session at once, a banner says the server is told later, and
  /// ``sendPendingSignOuts()`` tells it once the network is back.
  @discardableResult
  public func signOut() async -> AuthOutcome {
    guard let session = state.session else { return .notRun }
    guard state.network == .online else {
      service.forgetSession()
      unsentSignOuts.append(session)
      state.session = nil
      navigateToChoice()
      statusBanner = .signedOutOffline
      publish(.signedOut)
      return .succeeded(.done)
    }
    let outcome = await perform(
      .signOut, needsNetwork: false,
      call: { () async throws(AuthError) in
        try await self.send(
          { service throws(AuthError) in try await service.signOut(session) },
          whenCut: { $0.forgetSession() })
      },
      onSuccess: { _ in }, onFailure: { _ in })
    state.session = nil
    navigateToChoice()
    publish(.signedOut)
    return outcome
  }

  /// Tells the backend about the sessions signed out while offline; call it when the network
  /// is back, after ``updateNetworkStatus(_:)`` (the shell does on `network online`). Does
  /// nothing while offline or while another request is in flight; a session the backend still
  /// cannot be told about stays pending. The banner saying the server will be told goes away
  /// once it has been. Returns the first failure, if one came (each pending sign-out is still
  /// tried), else success, or ``AuthOutcome/notRun`` when none was sent.
  @discardableResult
  public func sendPendingSignOuts() async -> AuthOutcome {
    var outcome = AuthOutcome.notRun
    while state.network == .online, state.inFlight == nil, let session = unsentSignOuts.first {
      unsentSignOuts.removeFirst()
      state.inFlight = .signOut
      events(.submitted(.signOut))
      do {
        try await send { service throws(AuthError) in
          try await service.endForgottenSession(session)
        }
        state.inFlight = nil
        events(.succeeded(.signOut))
        if outcome == .notRun { outcome = .succeeded(.done) }
      } catch {
        state.inFlight = nil
        events(.failed(.signOut, reason: .service(error)))
        if case .failed = outcome {} else { outcome = .failed(error) }
        if error == .networkUnavailable {
          unsentSignOuts.insert(session, at: 0)
          return outcome
        }
      }
    }
    if unsentSignOuts.isEmpty, state.banner == .signedOutOffline { state.message = nil }
    return outcome
  }

  /// Whether a sign-out made offline has yet to be told to the backend.
  public var hasPendingSignOut: Bool { !unsentSignOuts.isEmpty }

  /// Deletes the signed-in user's account (seed 004's GDPR deletion; the app asks for a
  /// confirmation first). On success the entry screen says it is done.
  @discardableResult
  public func deleteAccount() async -> AuthOutcome {
    guard let session = state.session else { return .notRun }
    return await perform(
      .deleteAccount,
      call: { () async throws(AuthError) in
        try await self.send({ service throws(AuthError) in try await service.deleteAccount(session)
        })
      },
      onSuccess: { _ in
        self.state.session = nil
        self.clearFormState()
        self.navigationState = .choice
        self.statusBanner = .accountDeleted
      })
  }

  /// Acts on a link from an email, as the app does when the link opens it.
  ///
  /// A confirmation link confirms the address and lands on the sign-in form with the email
  /// filled in; a recovery link lands on the reset-verify form with the code filled in. A
  /// link the server verified itself signs in with the session it carries, or says the email's
  /// link was invalid or expired.
  @discardableResult
  public func open(_ link: AuthDeepLink) async -> AuthOutcome {
    guard state.inFlight == nil else { return .notRun }
    switch link {
    case .recovery(let email, let code):
      // A link without an email (Firebase's, seed 004's) continues the reset already on
      // screen, or asks the backend whose code it is; one the backend cannot place is said to
      // be no link of its own, never an incorrect code.
      var pendingEmail = email
      if pendingEmail.isEmpty, case .resetVerify(let current) = navigationState {
        pendingEmail = current
      }
      clearFormState()
      navigationState = .resetVerify(pendingEmail: pendingEmail)
      state.form.otpCode = code
      statusBanner = .chooseNewPassword
      guard pendingEmail.isEmpty else { return .succeeded(.done) }
      // A link already used, or expired, says so (seed 004) on the form that asks for a new
      // one, with the address it was sent to when the backend can tell; any other link that
      // cannot reset a password lands there too.
      var recipient: String?
      return await perform(
        .checkResetCode, needsNetwork: true,
        call: { () async throws(AuthError) -> String in
          do throws(AuthError) {
            guard
              let found = try await self.send({ service throws(AuthError) in
                try await service.emailForResetCode(code)
              })
            else {
              throw .linkInvalid
            }
            return found
          } catch {
            if error == .otpAlreadyUsed || error == .otpExpired {
              recipient = await self.recipient(ofLinkCode: code)
            }
            throw error
          }
        },
        onSuccess: { (found: String) in
          // The new screen state clears messages: the banner is the link's, and stays.
          self.navigationState = .resetVerify(pendingEmail: found)
          self.statusBanner = .chooseNewPassword
        },
        onFailure: { error in
          // A link that cannot reset a password leaves the form that asks for a new one.
          self.clearFormState()
          self.navigationState = .resetRequest
          self.state.form.email = recipient ?? ""
          self.errorMessage = error.message
        })
    case .signedIn(let tokens):
      // The server verified the email's link and signed the user in: the app checks the
      // tokens with it and keeps the session, as it would a sign-in.
      clearFormState()
      navigationState = .login
      return await perform(
        .confirmEmail, needsNetwork: true,
        call: { () async throws(AuthError) in
          try await self.send({ service throws(AuthError) in
            try await service.session(from: tokens)
          })
        },
        keepsSession: { $0 },
        success: { _ in .signedIn },
        onSuccess: { session in
          self.state.session = session
          self.statusBanner = .emailVerified
        })
    case .refused:
      // The server could not verify the email's link (GoTrue says "invalid or has expired"
      // for an unknown, spent or expired one alike): the app can only say so and point to the
      // latest email, on the sign-in form where "resend" is one step.
      let typed = AuthValidation.normalizedEmail(state.form.email)
      clearFormState()
      navigationState = .login
      state.form.email = typed
      return await perform(
        .confirmEmail, needsNetwork: false,
        call: { () async throws(AuthError) in throw AuthError.linkInvalid },
        onSuccess: { (_: Void) in })
    case .confirmation(let email, let code) where state.session != nil:
      // Signed in already (Firebase signs new users in): confirm, then renew the tokens so
      // the session carries the verification.
      let confirmed = await perform(
        .confirmEmail, needsNetwork: true,
        call: { () async throws(AuthError) in
          try await self.send({ service throws(AuthError) in
            try await service.confirmEmail(email: email, code: code)
          })
        },
        onSuccess: { _ in })
      guard state.errorMessage == nil else { return confirmed }
      let renewed = await renew()
      if case .failed = renewed { return renewed }
      if state.session?.user.emailVerified == true { statusBanner = .emailVerified }
      return confirmed
    case .confirmation(let email, let code):
      // A link without an email (seed 004's, Firebase's) keeps the address typed on screen,
      // or, when none is, takes the one the link was sent to, so that a used or expired link
      // leaves the form ready to sign in or `resend`.
      let typed = AuthValidation.normalizedEmail(state.form.email)
      clearFormState()
      navigationState = .login
      state.form.email = email.isEmpty ? typed : email
      var recipient: String?
      return await perform(
        .confirmEmail, needsNetwork: true,
        call: { [needsAddress = state.form.email.isEmpty] () async throws(AuthError) in
          do throws(AuthError) {
            try await self.send({ service throws(AuthError) in
              try await service.confirmEmail(email: email, code: code)
            })
          } catch {
            if needsAddress { recipient = await self.recipient(ofLinkCode: code) }
            throw error
          }
        },
        onSuccess: { _ in self.statusBanner = .emailConfirmed },
        onFailure: { error in
          if let recipient, self.state.form.email.isEmpty { self.state.form.email = recipient }
          self.errorMessage = error.message
        })
    }
  }

  // MARK: The one place outcomes are applied

  /// Validates, checks the network, calls the backend and applies the outcome.
  ///
  /// Only one request is in flight at a time. The inputs are copied before the call. If the
  /// screen changes while the call is in flight, or the task is cancelled, a failure is dropped
  /// and a success only keeps the session it made (`keepsSession`): the backend has stored it,
  /// so dropping it would leave the two out of step. A current failure shows its message unless
  /// `onFailure` says otherwise.
  @discardableResult
  func perform<Value: Sendable>(
    _ action: AuthAction,
    needsNetwork: Bool = true,
    validate: () -> ValidationIssue? = { nil },
    call: () async throws(AuthError) -> Value,
    keepsSession: (Value) -> AuthSession? = { _ in nil },
    success: (Value) -> AuthSuccess = { _ in .done },
    onSuccess: (Value) -> Void,
    onFailure: ((AuthError) -> Void)? = nil
  ) async -> AuthOutcome {
    guard state.inFlight == nil else { return .notRun }
    if let issue = validate() {
      errorMessage = issue.message
      events(.failed(action, reason: .validation(issue)))
      return .invalid(issue)
    }
    guard !needsNetwork || state.network == .online else {
      statusBanner = .offline
      events(.failed(action, reason: .offline))
      return .offline
    }
    let screen = state.navigation
    state.inFlight = action
    events(.submitted(action))
    let outcome: Result<Value, AuthError>
    do {
      outcome = .success(try await call())
    } catch {
      outcome = .failure(error)
    }
    state.inFlight = nil
    let sessionBefore = state.session
    defer { publishSessionChange(from: sessionBefore, after: action) }
    let isCurrent = state.navigation == screen && !Task.isCancelled
    switch outcome {
    case .success(let value):
      events(.succeeded(action))
      guard isCurrent else {
        if let session = keepsSession(value) { state.session = session }
        return .superseded
      }
      // A new outcome replaces whatever the last one said.
      state.message = nil
      onSuccess(value)
      return .succeeded(success(value))
    case .failure(let error):
      events(.failed(action, reason: isCurrent ? .service(error) : .cancelled))
      guard isCurrent else { return .superseded }
      if let onFailure {
        onFailure(error)
      } else {
        errorMessage = error.message
      }
      return .failed(error)
    }
  }
}

extension AuthViewModel {
  /// Tells subscribers how the session changed across `action`, if it did.
  fileprivate func publishSessionChange(from before: AuthSession?, after action: AuthAction) {
    switch (before?.refreshToken, state.session?.refreshToken) {
    case (nil, _?): publish(action == .restoreSession ? .restored : .signedIn)
    case (_?, nil) where action == .deleteAccount: publish(.signedOut)
    case (_?, nil) where action != .signOut: publish(.expired)
    case (let old?, let new?) where old != new: publish(.refreshed)
    default: break
    }
  }
}
