import AuthFlow
import Testing

/// The quickstart scenarios of `examples/` (01 to 12) that the view model decides, as tests.
@MainActor
struct QuickstartScenarioTests {
  let viewModel: AuthViewModel
  let service: MockAuthService

  init() {
    (viewModel, service, _) = makeViewModel()
  }

  /// Scenario 3: Login with Valid Credentials.
  @Test func successfulLogin() async {
    service.stubSignIn(.success(makeSession()))
    viewModel.navigationState = .login
    viewModel.email = "test@example.com"
    viewModel.password = "TestPassword123!"

    await viewModel.submit()

    #expect(viewModel.session != nil)
    #expect(viewModel.errorMessage == nil)
    #expect(viewModel.isLoggedIn)
    #expect(viewModel.isLoading == false)
    #expect(service.calls == [.signIn(email: "test@example.com", password: "TestPassword123!")])
  }

  /// Scenario 4: Login with Invalid Credentials.
  @Test func loginWithInvalidCredentials() async {
    service.mockError = AuthError.invalidCredentials
    viewModel.navigationState = .login
    viewModel.email = "test@example.com"
    viewModel.password = "wrong"

    await viewModel.submit()

    #expect(viewModel.errorMessage == "That email or password looks incorrect")
    #expect(viewModel.navigationState == .login)
    #expect(viewModel.email == "test@example.com")
    #expect(viewModel.password == "wrong")
    #expect(viewModel.session == nil)
  }

  /// Scenario 6: Signup with Password Mismatch.
  @Test func signupWithPasswordMismatch() async {
    viewModel.navigationState = .signup(consentAccepted: true)
    viewModel.email = "newuser@example.com"
    viewModel.password = "Password123!"
    viewModel.confirmPassword = "Password456!"

    await viewModel.submit()

    #expect(viewModel.errorMessage == "Passwords don't match")
    #expect(viewModel.navigationState == .signup(consentAccepted: true))
    #expect(viewModel.email == "newuser@example.com")
    #expect(viewModel.password == "Password123!")
    #expect(viewModel.confirmPassword == "Password456!")
    #expect(service.calls.isEmpty, "no API call")
  }

  /// Scenario 7: Signup with Duplicate Email.
  @Test func signupWithDuplicateEmail() async {
    service.mockError = AuthError.duplicateEmail
    viewModel.navigationState = .signup(consentAccepted: true)
    viewModel.email = "test@example.com"
    viewModel.password = "NewPassword123!"
    viewModel.confirmPassword = "NewPassword123!"

    await viewModel.submit()

    #expect(
      viewModel.errorMessage
        == "An account with this email already exists. Try logging in instead."
    )
    #expect(viewModel.navigationState == .signup(consentAccepted: true))
    viewModel.navigateToChoice()
    viewModel.navigateToLogin()
    #expect(viewModel.navigationState == .login, "the user can go back and log in instead")
  }

  /// Scenario 8: Back Navigation Clears State.
  @Test func backNavigationClearsState() {
    viewModel.navigationState = .login
    viewModel.email = "test@example.com"
    viewModel.password = "password"
    viewModel.errorMessage = "Some error"

    viewModel.navigateToChoice()

    #expect(viewModel.navigationState == .choice)
    #expect(viewModel.email == "")
    #expect(viewModel.password == "")
    #expect(viewModel.errorMessage == nil)
    viewModel.navigateToLogin()
    #expect(viewModel.email == "" && viewModel.password == "", "login shows empty fields")
  }

  /// Scenario 11: Offline Handling.
  @Test func offlineHandling() async {
    viewModel.updateNetworkStatus(.offline)
    viewModel.navigationState = .login
    viewModel.email = "test@example.com"
    viewModel.password = "password"

    await viewModel.submit()

    #expect(
      viewModel.statusBanner?.message == "You're offline. Try again once you're connected.")
    #expect(viewModel.canSubmit == false)
    #expect(service.calls.isEmpty, "no API call attempted")

    viewModel.updateNetworkStatus(.online)
    #expect(viewModel.canSubmit, "re-enabling the network re-enables submit")
    #expect(viewModel.statusBanner == nil)
  }

  /// Scenario 12: Rapid Navigation (Stress Test).
  @Test func rapidNavigation() {
    for _ in 0..<10 {
      viewModel.navigateToLogin()
      #expect(viewModel.navigationState == .login)

      viewModel.navigateToChoice()
      #expect(viewModel.navigationState == .choice)
      #expect(viewModel.email == "")

      viewModel.navigateToSignup()
      #expect(viewModel.navigationState == .signup(consentAccepted: false))

      viewModel.navigateToChoice()
      #expect(viewModel.navigationState == .choice)
    }
  }
}
