extension AuthViewModel {
  /// Changes the signed-in user's password to `newPassword` (seed 004's `updatePassword`); the
  /// user stays signed in. The new password follows the signup rules. When the backend asks
  /// for proof of a recent sign-in first, it emails a code and a banner says so: the change is
  /// then asked for again with that code in ``otpCode``, which it spends.
  @discardableResult
  public func changePassword(to newPassword: String) async -> AuthOutcome {
    guard let session = state.session, state.inFlight == nil else { return .notRun }
    let code = AuthValidation.normalizedCode(state.form.otpCode)
    return await perform(
      .changePassword, validate: { AuthValidation.checkNewPassword(newPassword) },
      call: { () async throws(AuthError) in
        try await self.send({ service throws(AuthError) in
          try await service.updatePassword(
            session, newPassword: newPassword, nonce: code.isEmpty ? nil : code)
        })
      },
      keepsSession: { $0.session },
      success: { result in
        if case .reauthenticationCodeSent = result { return .reauthenticationCodeSent }
        return .passwordChanged
      },
      onSuccess: { result in
        self.state.form.otpCode = ""
        switch result {
        case .changed(let session):
          self.state.session = session
          self.statusBanner = .passwordChanged
        case .reauthenticationCodeSent:
          self.statusBanner = .reauthenticationCodeSent
        }
      },
      onFailure: { error in
        // A refused code is spent or wrong either way: the next try asks for one afresh.
        self.state.form.otpCode = ""
        self.endSessionIfExpired(by: error)
        self.errorMessage = error.message
      })
  }

  /// Signs the user out onto the entry screen when `error` says the session ended.
  func endSessionIfExpired(by error: AuthError) {
    guard error == .sessionExpired else { return }
    state.session = nil
    clearFormState()
    navigationState = .choice
  }
}
