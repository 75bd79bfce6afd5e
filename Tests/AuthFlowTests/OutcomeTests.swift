import AuthFlow
import Testing

/// Each action returns what it came to, so a caller reads the outcome from the value instead
/// of from the banner or the analytics events.
@MainActor
struct OutcomeTests {
  let viewModel: AuthViewModel
  let service: MockAuthService

  init() {
    (viewModel, service, _) = makeViewModel()
  }

  private func fillLogin() {
    viewModel.navigateToLogin()
    viewModel.email = "test@example.com"
    viewModel.password = "TestPassword123!"
  }

  private func fillSignup() {
    viewModel.navigateToSignup()
    viewModel.email = "ada@example.com"
    viewModel.password = "Password123"
    viewModel.confirmPassword = "Password123"
    viewModel.updateConsent(true)
  }

  @Test func submitOnTheChoiceScreenDoesNotRun() async {
    #expect(await viewModel.submit() == .notRun)
  }

  @Test func aSignInSaysItSignedIn() async {
    service.stubSignIn(.success(makeSession()))
    fillLogin()
    #expect(await viewModel.submit() == .succeeded(.signedIn))
  }

  @Test func aRefusedFormSaysWhy() async {
    viewModel.navigateToLogin()
    #expect(await viewModel.submit() == .invalid(.emailRequired))
    #expect(service.calls.isEmpty)
  }

  @Test func offlineNothingIsAsked() async {
    fillLogin()
    viewModel.updateNetworkStatus(.offline)
    #expect(await viewModel.submit() == .offline)
  }

  @Test func aStoreThatCannotSaveTheSessionComesBackAsAValue() async {
    service.stubSignIn(.failure(.localStore(.readOnly)))
    fillLogin()
    let outcome = await viewModel.submit()
    #expect(outcome == .failed(.localStore(.readOnly)))
    #expect(outcome.localStoreProblem == .readOnly)
  }

  @Test(arguments: [
    (SignUpResult.confirmationRequired, true),
    (.confirmationResentToExistingAccount, false),
    (.signedIn(makeSession()), true),
    (.signedInPendingConfirmation(makeSession()), true),
    (.signedInVerificationNotSent(makeSession()), true),
  ])
  func aSignupSaysHowItEndedAndWhetherItMadeAnAccount(result: SignUpResult, created: Bool) async {
    service.stubSignUp(.success(result))
    fillSignup()
    let outcome = await viewModel.submit()
    #expect(outcome == .succeeded(.signedUp(result)))
    guard case .succeeded(let success) = outcome else { return }
    #expect(success.createdAnAccount == created)
  }

  @Test func aResetRequestAndAResetSayWhere() async {
    service.stubPasswordReset(.success(()))
    service.stubResetPassword(.success(()))
    viewModel.navigateToLogin()
    viewModel.navigateToResetRequest()
    viewModel.email = "ada@example.com"
    #expect(await viewModel.submit() == .succeeded(.resetCodeSent(email: "ada@example.com")))
    viewModel.otpCode = "123456"
    viewModel.password = "Password123"
    viewModel.confirmPassword = "Password123"
    #expect(await viewModel.submit() == .succeeded(.passwordReset(email: "ada@example.com")))
  }

  @Test func aPasswordChangeSaysWhenItNeedsTheEmailedCode() async {
    service.stubSignIn(.success(makeSession()))
    fillLogin()
    await viewModel.submit()
    service.stubUpdatePassword(.success(.reauthenticationCodeSent))
    #expect(
      await viewModel.changePassword(to: "Another123") == .succeeded(.reauthenticationCodeSent))
    service.stubUpdatePassword(.success(.changed(makeSession())))
    #expect(await viewModel.changePassword(to: "Another123") == .succeeded(.passwordChanged))
  }

  @Test func aFailedSignOutStillSignsOutAndSaysWhatFailed() async {
    service.stubSignIn(.success(makeSession()))
    service.stubSignOut(.failure(.networkUnavailable))
    fillLogin()
    await viewModel.submit()
    #expect(await viewModel.signOut() == .failed(.networkUnavailable))
    #expect(viewModel.session == nil)
    #expect(await viewModel.signOut() == .notRun)
  }

  @Test func aRestoreSaysWhetherASessionWasSaved() async {
    service.stubRestore(.success(nil))
    #expect(await viewModel.restoreSession() == .succeeded(.done), "nothing saved: no sign-in")
    #expect(viewModel.session == nil)
    service.stubRestore(.success(makeSession()))
    #expect(await viewModel.restoreSession() == .succeeded(.signedIn))
    #expect(await viewModel.restoreSession() == .notRun, "signed in already")
  }

  @Test func aRenewalSaysWhatItCameTo() async {
    #expect(await viewModel.refreshSession() == .notRun, "no one signed in")
    viewModel.session = makeSession()
    viewModel.updateNetworkStatus(.offline)
    #expect(await viewModel.refreshSession() == .offline, "nothing asked offline")
    viewModel.updateNetworkStatus(.online)
    service.stubRefresh(.success(makeSession(token: "access-2")))
    #expect(await viewModel.refreshSession() == .succeeded(.done))
    service.stubRefresh(.failure(.sessionExpired))
    #expect(await viewModel.refreshSession() == .failed(.sessionExpired))
    #expect(viewModel.session == nil)
  }

  @Test func pendingSignOutsSayWhetherTheBackendWasTold() async {
    #expect(await viewModel.sendPendingSignOuts() == .notRun, "none pending")
    for token in ["access-1", "access-2"] {
      viewModel.session = makeSession(token: token)
      viewModel.updateNetworkStatus(.offline)
      #expect(await viewModel.signOut() == .succeeded(.done))
    }
    viewModel.updateNetworkStatus(.online)
    service.stubEndForgottenSession(.failure(.localStore(.full)))
    #expect(
      await viewModel.sendPendingSignOuts() == .failed(.localStore(.full)),
      "the first failure, though each was tried")
    #expect(!viewModel.hasPendingSignOut)

    viewModel.session = makeSession()
    viewModel.updateNetworkStatus(.offline)
    await viewModel.signOut()
    viewModel.updateNetworkStatus(.online)
    service.stubEndForgottenSession(.success(()))
    #expect(await viewModel.sendPendingSignOuts() == .succeeded(.done))
  }
}
