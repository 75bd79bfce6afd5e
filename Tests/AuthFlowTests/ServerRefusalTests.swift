import AuthFlow
import Testing

/// What the user reads when the backend refuses what the form let through: an address, or a
/// link it cannot place.
@MainActor
struct ServerRefusalTests {
  let viewModel: AuthViewModel
  let service: MockAuthService

  init() {
    (viewModel, service, _) = makeViewModel()
  }

  @Test func aRefusedAddressReadsAsTheFormsCheckOnEveryForm() async {
    service.stubSignUp(.failure(.emailRejected))
    service.stubSignIn(.failure(.emailRejected))
    service.stubPasswordReset(.failure(.emailRejected))
    let seedWording = "Invalid email format"

    viewModel.navigationState = .signup(consentAccepted: true)
    viewModel.email = "new@example.com"
    viewModel.password = "Password123"
    viewModel.confirmPassword = "Password123"
    await viewModel.submit()
    #expect(viewModel.errorMessage == seedWording)

    viewModel.navigateToLogin()
    viewModel.email = "test@example.com"
    viewModel.password = "TestPassword123!"
    await viewModel.submit()
    #expect(viewModel.errorMessage == seedWording)

    viewModel.navigateToResetRequest()
    viewModel.email = "test@example.com"
    await viewModel.submit()
    #expect(viewModel.errorMessage == seedWording)
    #expect(viewModel.navigationState == .resetRequest)
    #expect(seedWording == ValidationIssue.emailInvalid.message)
  }

  @Test func aNonASCIIAddressIsRefusedBeforeAnyCall() async {
    viewModel.navigateToResetRequest()
    viewModel.email = "jos\u{E9}@example.com"
    await viewModel.submit()
    #expect(viewModel.errorMessage == "Invalid email format")
    #expect(service.calls.isEmpty)
  }

  @Test func aRecoveryLinkTheBackendCannotPlaceAsksForTheLatestEmail() async {
    service.stubEmailForResetCode(.success(nil))
    await viewModel.open(.recovery(email: "", code: "123456"))
    #expect(service.calls == [.emailForResetCode("123456")])
    #expect(viewModel.errorMessage == AuthError.linkInvalid.message)
    #expect(viewModel.errorMessage?.contains("Open the link from your latest email") == true)
  }
}
