#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The form's submit button on each screen: validate, call the backend, show what it answered.
extension AuthViewModel {
  /// Submits the form on show: validates it, then calls the backend unless offline.
  ///
  /// Does nothing on the choice screen, while signed in, or while another request is in flight
  /// (``AuthOutcome/notRun``). Returns what happened: the account created, the code sent…
  @discardableResult
  public func submit() async -> AuthOutcome {
    guard state.session == nil, state.inFlight == nil else { return .notRun }
    switch state.navigation {
    case .choice:
      return .notRun
    case .login:
      return await signIn()
    case .signup(let consentAccepted):
      return await signUp(consentAccepted: consentAccepted)
    case .resetRequest:
      return await requestPasswordReset()
    case .resetVerify(let pendingEmail):
      return await resetPassword(pendingEmail: pendingEmail)
    }
  }

  private func signIn() async -> AuthOutcome {
    let email = AuthValidation.normalizedEmail(state.form.email)
    let password = state.form.password
    return await perform(
      .signIn,
      validate: { self.state.validationIssue },
      call: { () async throws(AuthError) in
        try await self.send({ service throws(AuthError) in
          try await service.signIn(email: email, password: password)
        })
      },
      keepsSession: { $0 },
      success: { _ in .signedIn },
      onSuccess: { session in
        self.state.session = session
        self.state.form.password = ""
      })
  }

  private func signUp(consentAccepted: Bool) async -> AuthOutcome {
    func name(_ text: String) -> String? {
      let trimmed = text.trimmingWhitespace()
      return trimmed.isEmpty ? nil : trimmed
    }
    let request = SignUpRequest(
      email: AuthValidation.normalizedEmail(state.form.email), password: state.form.password,
      consentAccepted: consentAccepted, firstName: name(state.form.firstName),
      lastName: name(state.form.lastName), consentAcceptedAt: consentAccepted ? now() : nil)
    return await perform(
      .signUp,
      validate: { self.state.validationIssue },
      call: { () async throws(AuthError) in
        try await self.send({ service throws(AuthError) in try await service.signUp(request) })
      },
      keepsSession: { $0.session },
      success: { .signedUp($0) },
      onSuccess: { result in
        self.state.form.password = ""
        self.state.form.confirmPassword = ""
        switch result {
        case .signedIn(let session): self.state.session = session
        case .confirmationRequired: self.statusBanner = .confirmationSent
        case .confirmationResentToExistingAccount:
          self.statusBanner = .confirmationSentKeepsPassword
        case .signedInPendingConfirmation(let session):
          self.state.session = session
          self.statusBanner = .verificationSent
        case .signedInVerificationNotSent(let session):
          self.state.session = session
          self.statusBanner = .verificationNotSent
        }
      })
  }

  private func requestPasswordReset() async -> AuthOutcome {
    let email = AuthValidation.normalizedEmail(state.form.email)
    return await perform(
      .resetRequest, validate: { self.state.validationIssue },
      call: { () async throws(AuthError) in
        try await self.send({ service throws(AuthError) in
          try await service.requestPasswordReset(email: email)
        })
      },
      success: { _ in .resetCodeSent(email: email) },
      onSuccess: { _ in
        self.state.form.password = ""
        self.state.form.otpCode = ""
        self.navigationState = .resetVerify(pendingEmail: email)
        self.statusBanner = self.state.resetCodeFormat == .link ? .resetLinkSent : .resetCodeSent
      })
  }

  private func resetPassword(pendingEmail: String) async -> AuthOutcome {
    let code = AuthValidation.normalizedCode(state.form.otpCode, format: state.resetCodeFormat)
    let newPassword = state.form.password
    return await perform(
      .resetVerify,
      validate: { self.state.validationIssue },
      call: { () async throws(AuthError) in
        try await self.send({ service throws(AuthError) in
          try await service.resetPassword(email: pendingEmail, code: code, newPassword: newPassword)
        })
      },
      success: { _ in .passwordReset(email: pendingEmail) },
      onSuccess: { _ in
        self.clearFormState()
        self.state.form.email = pendingEmail
        self.navigationState = .login
        self.statusBanner = .passwordUpdated
      })
  }
}
