import AuthFlow
import Testing

/// The flow's map is true: the view model takes every transition it lists, from its screen, by
/// its step, to its screen. Coverage and the graph read the same map.
@MainActor
struct FlowMapTests {
  @Test(arguments: AuthFlowMap.transitions)
  func theViewModelTakesEveryTransition(_ transition: FlowTransition) async {
    let (viewModel, service, _) = makeViewModel()
    arrange(viewModel, at: transition.from)
    #expect(viewModel.state.node == transition.from, "arranged at \(transition.from)")
    await take(transition, viewModel, service)
    #expect(viewModel.state.node == transition.to, "\(transition)")
  }

  @Test func everyNodeAndStepIsUsedAndEveryMessageListed() {
    let nodes = Set(AuthFlowMap.transitions.flatMap { [$0.from, $0.to] })
    #expect(nodes == Set(FlowNode.allCases))
    #expect(Set(AuthFlowMap.transitions.map(\.step)) == Set(FlowStep.allCases))
    #expect(Set(AuthFlowMap.transitions).count == AuthFlowMap.transitions.count)
    #expect(Set(AuthFlowMap.errorCodes).count == AuthFlowMap.errorCodes.count)
    #expect(Set(AuthFlowMap.banners).count == AuthFlowMap.banners.count)
  }

  private func arrange(_ viewModel: AuthViewModel, at node: FlowNode) {
    switch node {
    case .choice: break
    case .login:
      viewModel.navigateToLogin()
      viewModel.email = "test@example.com"
      viewModel.password = "TestPassword123!"
    case .signup:
      viewModel.navigationState = .signup(consentAccepted: true)
      viewModel.email = "new@example.com"
      viewModel.password = "Password123"
      viewModel.confirmPassword = "Password123"
    case .resetRequest:
      viewModel.navigationState = .resetRequest
      viewModel.email = "test@example.com"
    case .resetVerify:
      viewModel.navigationState = .resetVerify(pendingEmail: "test@example.com")
      viewModel.otpCode = "123456"
      viewModel.password = "NewPassword123"
    case .signedIn:
      viewModel.session = makeSession()
    }
  }

  private func take(
    _ transition: FlowTransition, _ viewModel: AuthViewModel, _ service: MockAuthService
  )
    async
  {
    let staysPut = transition.from == transition.to
    switch transition.step {
    case .signIn: viewModel.navigateToLogin()
    case .createAccount: viewModel.navigateToSignup()
    case .forgotPassword: viewModel.navigateToResetRequest()
    case .back: viewModel.navigateToChoice()
    case .submit:
      switch transition.from {
      case .login:
        service.stubSignIn(staysPut ? .failure(.invalidCredentials) : .success(makeSession()))
      case .signup:
        service.stubSignUp(.success(staysPut ? .confirmationRequired : .signedIn(makeSession())))
      case .resetRequest:
        service.stubPasswordReset(staysPut ? .failure(.rateLimited) : .success(()))
      case .resetVerify:
        service.stubResetPassword(staysPut ? .failure(.otpIncorrect) : .success(()))
      case .choice, .signedIn: break
      }
      await viewModel.submit()
    case .openConfirmationLink:
      service.stubConfirmEmail(.success(()))
      service.stubRefresh(.success(makeSession(token: "access-2")))
      await viewModel.open(.confirmation(email: "test@example.com", code: "123456"))
    case .openRecoveryLink where transition.to == .resetRequest:
      // A link used already lands where a new one is asked for.
      service.stubEmailForResetCode(.failure(.otpAlreadyUsed))
      service.stubRecipient("test@example.com")
      await viewModel.open(.recovery(email: "", code: "a-used-link-token"))
    case .openRecoveryLink:
      await viewModel.open(.recovery(email: "test@example.com", code: "654321"))
    case .signOut:
      service.stubSignOut(.success(()))
      await viewModel.signOut()
    case .deleteAccount:
      service.stubDeleteAccount(.success(()))
      await viewModel.deleteAccount()
    case .sessionEnded:
      service.stubRefresh(.failure(.sessionExpired))
      await viewModel.refreshSession()
    case .changePassword:
      service.stubUpdatePassword(.success(.changed(makeSession(token: "access-2"))))
      await viewModel.changePassword(to: "BrandNew123")
    }
  }
}
