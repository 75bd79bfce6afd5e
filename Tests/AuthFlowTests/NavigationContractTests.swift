import AuthFlow
import Testing

/// The navigation contract: every transition between the screens with its clearing rules, the
/// consent rules, and errors that persist within a screen, in order.
@MainActor
struct NavigationContractTests {
  let viewModel: AuthViewModel
  let service: MockAuthService

  init() {
    (viewModel, service, _) = makeViewModel()
  }

  @Test func initialStateIsChoice() {
    #expect(viewModel.navigationState == .choice)
  }

  @Test func navigateFromChoiceToLogin() {
    viewModel.navigationState = .choice
    viewModel.navigateToLogin()
    #expect(viewModel.navigationState == .login)
  }

  @Test func navigateFromChoiceToSignup() {
    viewModel.navigationState = .choice
    viewModel.navigateToSignup()
    #expect(viewModel.navigationState == .signup(consentAccepted: false))
  }

  @Test func navigateToLoginKeepsFormAndDropsOldMessages() {
    viewModel.email = "test@example.com"
    viewModel.errorMessage = "Old error"
    viewModel.navigateToLogin()
    #expect(viewModel.email == "test@example.com")
    #expect(viewModel.errorMessage == nil)
    #expect(viewModel.statusBanner == nil)
  }

  @Test func navigateFromLoginToChoiceClearsState() {
    viewModel.navigationState = .login
    viewModel.email = "test@example.com"
    viewModel.password = "password123"
    viewModel.errorMessage = "Some error"

    viewModel.navigateToChoice()

    #expect(viewModel.navigationState == .choice)
    #expect(viewModel.email == "")
    #expect(viewModel.password == "")
    #expect(viewModel.errorMessage == nil)
    #expect(viewModel.statusBanner == nil)
  }

  @Test func navigateFromLoginToResetPreservesEmail() {
    viewModel.navigationState = .login
    viewModel.email = "test@example.com"
    viewModel.password = "password123"
    viewModel.errorMessage = "That email or password looks incorrect"

    viewModel.navigateToResetRequest()

    #expect(viewModel.navigationState == .resetRequest)
    #expect(viewModel.email == "test@example.com")
    #expect(viewModel.password == "")
    #expect(viewModel.errorMessage == nil)
  }

  @Test func navigateFromSignupToChoiceClearsState() {
    viewModel.navigationState = .signup(consentAccepted: true)
    viewModel.email = "test@example.com"
    viewModel.password = "password123"
    viewModel.confirmPassword = "password123"
    viewModel.statusBanner = AuthBanner("Check your email", kind: .info)

    viewModel.navigateToChoice()

    #expect(viewModel.navigationState == .choice)
    #expect(viewModel.email == "")
    #expect(viewModel.password == "")
    #expect(viewModel.confirmPassword == "")
    #expect(viewModel.statusBanner == nil)
  }

  @Test func choiceScreenPreventsBackNavigation() {
    #expect(viewModel.canNavigateBack == false)
    for state: AuthNavigationState in [
      .login, .signup(consentAccepted: true), .resetRequest, .resetVerify(pendingEmail: "a@b.co"),
    ] {
      viewModel.navigationState = state
      #expect(viewModel.canNavigateBack, "back must be offered on \(state)")
    }
  }

  @Test func consentToggleUpdatesState() {
    viewModel.navigationState = .signup(consentAccepted: false)
    viewModel.email = "new@example.com"
    viewModel.password = "Password123"

    viewModel.updateConsent(true)

    #expect(viewModel.navigationState == .signup(consentAccepted: true))
    #expect(viewModel.email == "new@example.com")
    #expect(viewModel.password == "Password123")
  }

  @Test func consentToggleOnlyWorksInSignupState() {
    viewModel.navigationState = .login

    viewModel.updateConsent(true)

    #expect(viewModel.navigationState == .login)
  }

  @Test(arguments: [
    (AuthNavigationState.choice, AuthScreen.choice),
    (.login, .login),
    (.signup(consentAccepted: false), .signup),
    (.resetRequest, .resetRequest),
    (.resetVerify(pendingEmail: "a@b.co"), .resetVerify),
  ])
  func viewSelectedForEachState(state: AuthNavigationState, screen: AuthScreen) {
    viewModel.navigationState = state
    #expect(viewModel.navigationState.screen == screen)
  }

  @Test func errorsClearedWhenNavigatingToChoice() {
    viewModel.navigationState = .login
    viewModel.errorMessage = "Invalid credentials"

    viewModel.navigateToChoice()

    #expect(viewModel.errorMessage == nil)
  }

  @Test func errorPersistsOnSameScreen() {
    viewModel.navigationState = .login
    viewModel.errorMessage = "Invalid credentials"

    viewModel.email = "typing@example.com"
    viewModel.password = "x"

    #expect(viewModel.errorMessage == "Invalid credentials")
  }

  @Test func dismissErrorClearsOnlyTheError() {
    viewModel.navigationState = .login
    viewModel.email = "test@example.com"
    viewModel.errorMessage = "Invalid credentials"

    viewModel.dismissError()

    #expect(viewModel.errorMessage == nil)
    #expect(viewModel.navigationState == .login)
    #expect(viewModel.email == "test@example.com")
  }

  @Test func completeNavigationCycle() {
    #expect(viewModel.navigationState == .choice)

    viewModel.navigateToSignup()
    #expect(viewModel.navigationState == .signup(consentAccepted: false))

    viewModel.email = "test@example.com"
    viewModel.password = "password"
    viewModel.confirmPassword = "password"

    viewModel.navigateToChoice()
    #expect(viewModel.navigationState == .choice)
    #expect(viewModel.email == "")

    viewModel.navigateToLogin()
    #expect(viewModel.navigationState == .login)
  }

  @Test func errorHandlingAcrossNavigation() {
    viewModel.navigationState = .login
    viewModel.errorMessage = "Invalid credentials"

    viewModel.navigateToChoice()
    #expect(viewModel.errorMessage == nil)

    viewModel.navigateToSignup()
    #expect(viewModel.errorMessage == nil)
  }

  @Test func stateClearingDoesNotAffectSession() {
    let mockSession = makeSession()
    viewModel.session = mockSession

    viewModel.navigationState = .login
    viewModel.email = "test@example.com"

    viewModel.navigateToChoice()

    #expect(viewModel.session != nil)
    #expect(viewModel.session == mockSession)
  }

  @Test func navigationNeverCallsTheService() {
    viewModel.navigateToLogin()
    viewModel.navigateToResetRequest()
    viewModel.navigateToChoice()
    viewModel.navigateToSignup()
    viewModel.updateConsent(true)
    viewModel.navigateToChoice()
    #expect(service.calls.isEmpty)
  }
}
