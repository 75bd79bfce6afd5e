import AuthFlow
import Testing

/// `submit()` on every form screen: validation, the service call and how its answer lands.
@MainActor
struct SubmitTests {
  let viewModel: AuthViewModel
  let service: MockAuthService
  let log: EventLog

  init() {
    (viewModel, service, log) = makeViewModel()
  }

  // MARK: Login

  @Test func loginSendsTheNormalizedEmailAndClearsThePasswordOnSuccess() async {
    service.stubSignIn(.success(makeSession()))
    viewModel.navigateToLogin()
    viewModel.email = "  Test@Example.COM "
    viewModel.password = "TestPassword123!"

    await viewModel.submit()

    #expect(service.calls == [.signIn(email: "test@example.com", password: "TestPassword123!")])
    #expect(viewModel.session == makeSession())
    #expect(viewModel.password == "")
    #expect(viewModel.email == "  Test@Example.COM ")
    #expect(viewModel.navigationState == .login)
    #expect(viewModel.errorMessage == nil && viewModel.statusBanner == nil)
  }

  @Test func loginWithUnconfirmedEmailSaysSo() async {
    service.stubSignIn(.failure(.emailUnverified))
    viewModel.navigateToLogin()
    viewModel.email = "unverified@example.com"
    viewModel.password = "Test1234"

    await viewModel.submit()

    #expect(viewModel.errorMessage == AuthError.emailUnverified.message)
    #expect(viewModel.session == nil)
    #expect(viewModel.password == "Test1234")
  }

  @Test(arguments: [
    ("", "secret", "Email is required"),
    ("   ", "secret", "Email is required"),
    ("test@", "secret", "Invalid email format"),
    ("test@example.com", "", "Password is required"),
  ])
  func loginValidationStopsBeforeTheService(email: String, password: String, message: String)
    async
  {
    viewModel.navigateToLogin()
    viewModel.email = email
    viewModel.password = password

    await viewModel.submit()

    #expect(viewModel.errorMessage == message)
    #expect(service.calls.isEmpty)
  }

  // MARK: Signup

  @Test func signupWithConfirmationOnShowsTheVerificationBanner() async {
    service.stubSignUp(.success(.confirmationRequired))
    fillSignup(email: "NewUser@example.com", password: "Password123!", consent: true)
    viewModel.setValue(" Ada ", for: .firstName)

    await viewModel.submit()

    #expect(
      service.calls == [
        .signUp(
          SignUpRequest(
            email: "newuser@example.com", password: "Password123!", consentAccepted: true,
            firstName: "Ada", lastName: nil, consentAcceptedAt: testNow))
      ])
    #expect(viewModel.statusBanner == .confirmationSent)
    #expect(viewModel.session == nil)
    #expect(viewModel.navigationState == .signup(consentAccepted: true))
    #expect(viewModel.email == "NewUser@example.com")
    #expect(viewModel.password == "" && viewModel.confirmPassword == "")
    #expect(viewModel.canSubmit == false, "no second signup by accident")
  }

  @Test func signupWithConfirmationOffSignsIn() async {
    let session = makeSession(email: "newuser@example.com")
    service.stubSignUp(.success(.signedIn(session)))
    fillSignup(email: "newuser@example.com", password: "Password123!", consent: true)

    await viewModel.submit()

    #expect(viewModel.session == session)
    #expect(viewModel.isLoggedIn)
    #expect(viewModel.statusBanner == nil && viewModel.errorMessage == nil)
  }

  @Test(arguments: [
    ("", "Password123", "Password123", true, "Email is required"),
    ("bad email@x.io", "Password123", "Password123", true, "Invalid email format"),
    ("new@example.com", "", "", true, "Password is required"),
    ("new@example.com", "Pass1", "Pass1", true, "Minimum 8 characters required"),
    ("new@example.com", "12345678", "12345678", true, "Must contain at least one letter"),
    ("new@example.com", "Password", "Password", true, "Must contain at least one number"),
    ("new@example.com", "Password123", "Password124", true, "Passwords don't match"),
    (
      "new@example.com", "Password123", "Password123", false,
      "You must accept the terms to continue."
    ),
  ])
  func signupValidationStopsBeforeTheService(
    email: String, password: String, confirm: String, consent: Bool, message: String
  ) async {
    fillSignup(email: email, password: password, confirm: confirm, consent: consent)

    await viewModel.submit()

    #expect(viewModel.errorMessage == message)
    #expect(service.calls.isEmpty)
    #expect(log.events.last == .failed(.signUp, reason: .validation(issue(for: message))))
  }

  // MARK: Reset

  @Test func resetRequestMovesToVerifyWithTheEmailAndANeutralBanner() async {
    service.stubPasswordReset(.success(()))
    viewModel.navigateToLogin()
    viewModel.email = "Test@example.com"
    viewModel.password = "half-typed"
    viewModel.navigateToResetRequest()

    await viewModel.submit()

    #expect(service.calls == [.requestPasswordReset(email: "test@example.com")])
    #expect(viewModel.navigationState == .resetVerify(pendingEmail: "test@example.com"))
    #expect(viewModel.statusBanner == .resetCodeSent)
    #expect(!AuthBanner.resetCodeSent.message.contains("test@example.com"))
    #expect(viewModel.password == "" && viewModel.otpCode == "")
  }

  @Test func resetRequestRateLimitedStaysPut() async {
    service.stubPasswordReset(.failure(.rateLimited))
    viewModel.navigationState = .resetRequest
    viewModel.email = "test@example.com"

    await viewModel.submit()

    #expect(viewModel.navigationState == .resetRequest)
    #expect(viewModel.errorMessage == AuthError.rateLimited.message)
  }

  @Test func resetVerifySetsThePasswordAndReturnsToLoginWithTheEmail() async {
    service.stubResetPassword(.success(()))
    viewModel.navigationState = .resetVerify(pendingEmail: "test@example.com")
    viewModel.otpCode = "123 456"
    viewModel.password = "NewPassword123"

    await viewModel.submit()

    #expect(
      service.calls == [
        .resetPassword(email: "test@example.com", code: "123456", newPassword: "NewPassword123")
      ])
    #expect(viewModel.navigationState == .login)
    #expect(viewModel.email == "test@example.com")
    #expect(viewModel.password == "" && viewModel.otpCode == "")
    #expect(viewModel.statusBanner == .passwordUpdated)
  }

  @Test(arguments: [AuthError.otpExpired, .otpAlreadyUsed, .otpIncorrect, .samePassword])
  func resetVerifyFailureKeepsTheScreen(error: AuthError) async {
    service.stubResetPassword(.failure(error))
    viewModel.navigationState = .resetVerify(pendingEmail: "test@example.com")
    viewModel.otpCode = "123456"
    viewModel.password = "NewPassword123"

    await viewModel.submit()

    #expect(viewModel.navigationState == .resetVerify(pendingEmail: "test@example.com"))
    #expect(viewModel.errorMessage == error.message)
    #expect(viewModel.otpCode == "123456")
  }

  @Test(arguments: [
    ("12345", "NewPassword123", "Enter the 6-digit code from your email"),
    ("12a456", "NewPassword123", "Enter the 6-digit code from your email"),
    ("123456", "short1", "Minimum 8 characters required"),
  ])
  func resetVerifyValidationStopsBeforeTheService(code: String, password: String, message: String)
    async
  {
    viewModel.navigationState = .resetVerify(pendingEmail: "test@example.com")
    viewModel.otpCode = code
    viewModel.password = password

    await viewModel.submit()

    #expect(viewModel.errorMessage == message)
    #expect(service.calls.isEmpty)
  }

  @Test func submitOnChoiceOrWhileSignedInDoesNothing() async {
    await viewModel.submit()
    viewModel.session = makeSession()
    viewModel.navigateToLogin()
    viewModel.email = "test@example.com"
    viewModel.password = "x"
    await viewModel.submit()
    #expect(service.calls.isEmpty)
    #expect(viewModel.errorMessage == nil)
  }

  // MARK: Offline

  @Test(arguments: [
    AuthNavigationState.login, .signup(consentAccepted: true), .resetRequest,
    .resetVerify(pendingEmail: "test@example.com"),
  ])
  func offlineSubmitMakesNoCallOnAnyScreen(state: AuthNavigationState) async {
    viewModel.navigationState = state
    viewModel.email = "test@example.com"
    viewModel.password = "Password123"
    viewModel.confirmPassword = "Password123"
    viewModel.otpCode = "123456"
    viewModel.updateNetworkStatus(.offline)

    await viewModel.submit()

    #expect(viewModel.statusBanner == .offline)
    #expect(viewModel.errorMessage == nil)
    #expect(service.calls.isEmpty)
    #expect(log.events.last?.name == "auth_failed")
  }

  @Test func goingOnlineKeepsOtherBanners() {
    viewModel.statusBanner = .resetCodeSent
    viewModel.updateNetworkStatus(.offline)
    viewModel.updateNetworkStatus(.online)
    #expect(viewModel.statusBanner == .resetCodeSent)
  }

  // MARK: In flight

  @Test func loadingWhileInFlightAndSecondSubmitIgnored() async {
    service.stubSignIn(.success(makeSession()))
    let gate = service.holdNextCall()
    viewModel.navigateToLogin()
    viewModel.email = "test@example.com"
    viewModel.password = "TestPassword123!"

    let first = Task { await viewModel.submit() }
    await gate.waitForArrival()
    #expect(viewModel.isLoading)
    #expect(viewModel.inFlight == .signIn)
    #expect(viewModel.submitBlocker == .inFlight(.signIn))
    #expect(await viewModel.submit() == .notRun, "a second submit while one is in flight")
    gate.open()
    #expect(await first.value == .succeeded(.signedIn))

    #expect(service.calls.count == 1)
    #expect(viewModel.isLoading == false)
    #expect(viewModel.isLoggedIn)
  }

  @Test func resultForALeftScreenIsDropped() async {
    service.stubPasswordReset(.success(()))
    let gate = service.holdNextCall()
    viewModel.navigationState = .resetRequest
    viewModel.email = "test@example.com"

    let submit = Task { await viewModel.submit() }
    await gate.waitForArrival()
    viewModel.navigateToChoice()
    gate.open()
    #expect(await submit.value == .superseded)

    #expect(viewModel.navigationState == .choice)
    #expect(viewModel.statusBanner == nil)
  }

  @Test func sessionFromALeftScreenIsKept() async {
    service.stubSignIn(.success(makeSession()))
    let gate = service.holdNextCall()
    viewModel.navigateToLogin()
    viewModel.email = "test@example.com"
    viewModel.password = "TestPassword123!"

    let submit = Task { await viewModel.submit() }
    await gate.waitForArrival()
    viewModel.navigateToChoice()
    gate.open()
    #expect(await submit.value == .superseded)

    #expect(viewModel.session == makeSession(), "the backend stored it; keep the two in step")
  }

  @Test func cancelledFailureIsNotShown() async {
    service.stubSignIn(.failure(.networkUnavailable))
    let gate = service.holdNextCall()
    viewModel.navigateToLogin()
    viewModel.email = "test@example.com"
    viewModel.password = "TestPassword123!"

    let submit = Task { await viewModel.submit() }
    await gate.waitForArrival()
    submit.cancel()
    gate.open()
    #expect(await submit.value == .superseded)

    #expect(viewModel.errorMessage == nil)
    #expect(viewModel.isLoading == false)
    #expect(log.events.last == .failed(.signIn, reason: .cancelled))
  }

  // MARK: The button follows the rules (seed 002 scenario 5)

  @Test func submitStaysDisabledUntilEveryFieldIsValidAndTheTermsAccepted() {
    fillSignup(email: "notanemail", password: "a", confirm: "b", consent: true)
    #expect(viewModel.submitBlocker == .invalid(.emailInvalid))
    viewModel.email = "new@example.com"
    #expect(viewModel.submitBlocker == .invalid(.passwordTooShort))
    viewModel.password = "Password123"
    #expect(viewModel.submitBlocker == .invalid(.passwordsDontMatch))
    viewModel.confirmPassword = "Password123"
    #expect(viewModel.canSubmit)
    viewModel.updateConsent(false)
    #expect(viewModel.submitBlocker == .consentRequired)
  }

  @Test func theBlockerIsTheMessageSubmitWouldShow() async {
    viewModel.navigationState = .resetVerify(pendingEmail: "test@example.com")
    viewModel.otpCode = "12345"
    viewModel.password = "NewPassword123"
    #expect(viewModel.submitBlocker == .invalid(.codeInvalid))

    await viewModel.submit()

    #expect(viewModel.errorMessage == ValidationIssue.codeInvalid.message)
    #expect(service.calls.isEmpty)
  }

  // MARK: Helpers

  private func fillSignup(email: String, password: String, confirm: String? = nil, consent: Bool) {
    viewModel.navigateToSignup()
    viewModel.updateConsent(consent)
    viewModel.email = email
    viewModel.password = password
    viewModel.confirmPassword = confirm ?? password
  }

  private func issue(for message: String) -> ValidationIssue {
    ValidationIssue.allCases.first { $0.message == message } ?? .codeInvalid
  }
}
