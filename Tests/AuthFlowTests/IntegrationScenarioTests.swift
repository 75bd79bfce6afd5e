import AuthFlow
import Testing

/// Whole flows through the view model: signup with a taken email, login → forgot → reset →
/// login, back and forth between the forms, rapid navigation.
@MainActor
struct IntegrationScenarioTests {
  let viewModel: AuthViewModel
  let service: MockAuthService
  let log: EventLog

  init() {
    (viewModel, service, log) = makeViewModel()
  }

  @Test func completeSignupFlowWithDuplicateEmail() async {
    service.stubSignUp(.failure(.duplicateEmail))
    service.stubSignIn(.success(makeSession()))

    viewModel.navigateToSignup()
    viewModel.email = "test@example.com"
    viewModel.password = "NewPassword123!"
    viewModel.confirmPassword = "NewPassword123!"
    #expect(viewModel.canSubmit == false)
    viewModel.updateConsent(true)
    #expect(viewModel.canSubmit)
    await viewModel.submit()
    #expect(
      viewModel.errorMessage
        == "An account with this email already exists. Try logging in instead.")
    #expect(viewModel.navigationState == .signup(consentAccepted: true))

    viewModel.navigateToChoice()
    viewModel.navigateToLogin()
    viewModel.email = "test@example.com"
    viewModel.password = "TestPassword123!"
    await viewModel.submit()

    #expect(viewModel.isLoggedIn)
    #expect(viewModel.errorMessage == nil)
    #expect(
      log.events == [
        .screenViewed(.choice), .screenViewed(.signup),
        .submitted(.signUp), .failed(.signUp, reason: .service(.duplicateEmail)),
        .screenViewed(.choice), .screenViewed(.login),
        .submitted(.signIn), .succeeded(.signIn), .sessionChanged(.signedIn),
      ])
  }

  @Test func loginForgotPasswordResetLogin() async {
    service.stubSignIn(.failure(.invalidCredentials))
    service.stubPasswordReset(.success(()))
    service.stubResetPassword(.success(()))

    viewModel.navigateToLogin()
    viewModel.email = "test@example.com"
    viewModel.password = "Forgotten1"
    await viewModel.submit()
    #expect(viewModel.errorMessage == "That email or password looks incorrect")

    viewModel.navigateToResetRequest()
    #expect(viewModel.email == "test@example.com")
    #expect(viewModel.errorMessage == nil)
    await viewModel.submit()
    #expect(viewModel.navigationState == .resetVerify(pendingEmail: "test@example.com"))

    viewModel.otpCode = "123456"
    viewModel.password = "BrandNew123"
    await viewModel.submit()
    #expect(viewModel.navigationState == .login)
    #expect(viewModel.email == "test@example.com")
    #expect(viewModel.statusBanner == .passwordUpdated)

    service.stubSignIn(.success(makeSession()))
    viewModel.password = "BrandNew123"
    await viewModel.submit()
    #expect(viewModel.isLoggedIn)
    #expect(
      service.calls == [
        .signIn(email: "test@example.com", password: "Forgotten1"),
        .requestPasswordReset(email: "test@example.com"),
        .resetPassword(email: "test@example.com", code: "123456", newPassword: "BrandNew123"),
        .signIn(email: "test@example.com", password: "BrandNew123"),
      ])
  }

  @Test func signupBackLoginBackSignup() {
    viewModel.navigateToSignup()
    viewModel.updateConsent(true)
    viewModel.email = "new@example.com"
    viewModel.password = "Password123"
    viewModel.confirmPassword = "Password123"

    viewModel.navigateToChoice()
    #expect(viewModel.navigationState == .choice)
    #expect(viewModel.email == "" && viewModel.password == "" && viewModel.confirmPassword == "")

    viewModel.navigateToLogin()
    #expect(viewModel.navigationState == .login)
    viewModel.email = "test@example.com"

    viewModel.navigateToChoice()
    #expect(viewModel.email == "")

    viewModel.navigateToSignup()
    #expect(viewModel.navigationState == .signup(consentAccepted: false))
    #expect(viewModel.email == "")
    #expect(viewModel.errorMessage == nil && viewModel.statusBanner == nil)
  }

  @Test func rapidNavigationLeavesNoResidue() {
    for round in 0..<1_000 {
      viewModel.navigateToLogin()
      viewModel.email = "user\(round)@example.com"
      viewModel.password = "Password\(round)"
      viewModel.errorMessage = "error \(round)"
      viewModel.navigateToResetRequest()
      viewModel.navigateToChoice()
      viewModel.navigateToSignup()
      viewModel.updateConsent(round.isMultiple(of: 2))
      viewModel.confirmPassword = "x"
      viewModel.navigateToChoice()
      #expect(viewModel.navigationState == .choice)
      #expect(viewModel.email == "" && viewModel.password == "" && viewModel.confirmPassword == "")
      #expect(viewModel.errorMessage == nil && viewModel.statusBanner == nil)
    }
    #expect(service.calls.isEmpty)
    #expect(log.events.count == 1 + 1_000 * 5)
  }
}
