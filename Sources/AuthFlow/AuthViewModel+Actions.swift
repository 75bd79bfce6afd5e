extension AuthViewModel {
  /// Submits the form on show: validates it, then calls the backend unless offline.
  ///
  /// Does nothing on the choice screen, while signed in, or while another request is in flight.
  public func submit() async {
    guard session == nil, inFlight == nil else { return }
    switch navigationState {
    case .choice:
      return
    case .login:
      await signIn()
    case .signup(let consentAccepted):
      await signUp(consentAccepted: consentAccepted)
    case .resetRequest:
      await requestPasswordReset()
    case .resetVerify(let pendingEmail):
      await resetPassword(pendingEmail: pendingEmail)
    }
  }

  /// Sends the confirmation email again for the address in the email field.
  public func resendConfirmation() async {
    guard inFlight == nil else { return }
    let email = AuthValidation.normalizedEmail(self.email)
    await perform(
      .resendConfirmation, validate: { AuthValidation.checkEmail(email) },
      call: { [service] () async throws(AuthError) in
        try await service.resendConfirmation(email: email)
      },
      onSuccess: { _ in self.statusBanner = .confirmationResent })
  }

  /// Ends the session; the form is cleared and the entry screen shown, even if the backend
  /// cannot be reached.
  public func signOut() async {
    guard let session, inFlight == nil else { return }
    inFlight = .signOut
    events(.submitted(.signOut))
    do {
      try await service.signOut(session)
      events(.succeeded(.signOut))
    } catch {
      events(.failed(.signOut, reason: .service(error)))
    }
    inFlight = nil
    self.session = nil
    navigateToChoice()
  }

  /// Renews the session's tokens; a revoked session signs the user out with an explanation.
  public func refreshSession() async {
    guard let session, inFlight == nil else { return }
    guard networkStatus == .online else {
      statusBanner = .offline
      events(.failed(.refresh, reason: .offline))
      return
    }
    inFlight = .refresh
    events(.submitted(.refresh))
    defer { inFlight = nil }
    do {
      self.session = try await service.refresh(session)
      dismissMessages()
      events(.succeeded(.refresh))
    } catch {
      events(.failed(.refresh, reason: .service(error)))
      if error == .sessionExpired {
        self.session = nil
        clearFormState()
        navigationState = .login
      }
      errorMessage = error.message
    }
  }

  /// Restores the session an earlier run saved, if the backend still accepts it.
  public func restoreSession() async {
    guard session == nil, inFlight == nil else { return }
    inFlight = .restoreSession
    defer { inFlight = nil }
    do {
      if let restored = try await service.restoreSession() {
        session = restored
        events(.succeeded(.restoreSession))
      }
    } catch {
      events(.failed(.restoreSession, reason: .service(error)))
    }
  }

  /// Acts on a link from an email, as the app does when the link opens it.
  ///
  /// A confirmation link confirms the address and lands on the sign-in form with the email
  /// filled in; a recovery link lands on the reset-verify form with the code filled in.
  public func open(_ link: AuthDeepLink) async {
    guard inFlight == nil else { return }
    switch link {
    case .recovery(let email, let code):
      clearFormState()
      navigationState = .resetVerify(pendingEmail: email)
      otpCode = code
      statusBanner = .chooseNewPassword
    case .confirmation(let email, let code):
      clearFormState()
      navigationState = .login
      self.email = email
      await perform(
        .confirmEmail, validate: { nil },
        call: { [service] () async throws(AuthError) in
          try await service.confirmEmail(email: email, code: code)
        },
        onSuccess: { _ in self.statusBanner = .emailConfirmed })
    }
  }

  // MARK: Submits

  private func signIn() async {
    let email = AuthValidation.normalizedEmail(self.email)
    let password = self.password
    await perform(
      .signIn,
      validate: {
        AuthValidation.checkEmail(email) ?? AuthValidation.checkLoginPassword(password)
      },
      call: { [service] () async throws(AuthError) in
        try await service.signIn(email: email, password: password)
      },
      keepsSession: { $0 },
      onSuccess: { session in
        self.session = session
        self.password = ""
      })
  }

  private func signUp(consentAccepted: Bool) async {
    let request = SignUpRequest(
      email: AuthValidation.normalizedEmail(email), password: password,
      consentAccepted: consentAccepted)
    let confirmation = confirmPassword
    await perform(
      .signUp,
      validate: {
        AuthValidation.checkEmail(request.email)
          ?? AuthValidation.checkNewPassword(request.password)
          ?? (request.password == confirmation ? nil : .passwordsDontMatch)
          ?? (consentAccepted ? nil : .consentRequired)
      },
      call: { [service] () async throws(AuthError) in try await service.signUp(request) },
      keepsSession: { result in
        if case .signedIn(let session) = result { session } else { nil }
      },
      onSuccess: { result in
        self.password = ""
        self.confirmPassword = ""
        switch result {
        case .signedIn(let session): self.session = session
        case .confirmationRequired: self.statusBanner = .confirmationSent
        }
      })
  }

  private func requestPasswordReset() async {
    let email = AuthValidation.normalizedEmail(self.email)
    await perform(
      .resetRequest, validate: { AuthValidation.checkEmail(email) },
      call: { [service] () async throws(AuthError) in
        try await service.requestPasswordReset(email: email)
      },
      onSuccess: { _ in
        self.password = ""
        self.otpCode = ""
        self.navigationState = .resetVerify(pendingEmail: email)
        self.statusBanner = .resetCodeSent
      })
  }

  private func resetPassword(pendingEmail: String) async {
    let code = AuthValidation.normalizedCode(otpCode)
    let newPassword = password
    await perform(
      .resetVerify,
      validate: {
        AuthValidation.checkCode(code) ?? AuthValidation.checkNewPassword(newPassword)
      },
      call: { [service] () async throws(AuthError) in
        try await service.resetPassword(email: pendingEmail, code: code, newPassword: newPassword)
      },
      onSuccess: { _ in
        self.clearFormState()
        self.email = pendingEmail
        self.navigationState = .login
        self.statusBanner = .passwordUpdated
      })
  }

  // MARK: The one place outcomes are applied

  /// Validates, checks the network, calls the backend and applies the outcome.
  ///
  /// The inputs are copied before the call. If the screen changes while the call is in flight,
  /// or the task is cancelled, a failure is dropped and a success only keeps the session it
  /// made (`keepsSession`): the backend has stored it, so dropping it would leave the two out
  /// of step.
  private func perform<Value: Sendable>(
    _ action: AuthAction,
    validate: () -> ValidationIssue?,
    call: () async throws(AuthError) -> Value,
    keepsSession: (Value) -> AuthSession? = { _ in nil },
    onSuccess: (Value) -> Void
  ) async {
    if let issue = validate() {
      errorMessage = issue.message
      events(.failed(action, reason: .validation(issue)))
      return
    }
    guard networkStatus == .online else {
      statusBanner = .offline
      events(.failed(action, reason: .offline))
      return
    }
    let screen = navigationState
    inFlight = action
    events(.submitted(action))
    let outcome: Result<Value, AuthError>
    do {
      outcome = .success(try await call())
    } catch {
      outcome = .failure(error)
    }
    inFlight = nil
    let isCurrent = navigationState == screen && !Task.isCancelled
    switch outcome {
    case .success(let value):
      events(.succeeded(action))
      if isCurrent {
        // A new outcome replaces whatever the last one said.
        dismissMessages()
        onSuccess(value)
      } else if let session = keepsSession(value) {
        self.session = session
      }
    case .failure(let error):
      events(.failed(action, reason: isCurrent ? .service(error) : .cancelled))
      if isCurrent { errorMessage = error.message }
    }
  }

}
