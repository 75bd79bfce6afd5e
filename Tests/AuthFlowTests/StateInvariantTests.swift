import AuthFlow
import Testing

/// The flow's invariants (one message at a time, consent only inside signup, the pending email
/// inside reset-verify, choice clears everything), checked directly and after every step of
/// random intent runs.
@MainActor
struct StateInvariantTests {
  let viewModel: AuthViewModel
  let service: MockAuthService

  init() {
    (viewModel, service, _) = makeViewModel()
  }

  @Test func settingAnErrorHidesTheBanner() {
    viewModel.statusBanner = .resetCodeSent
    viewModel.errorMessage = "Invalid email format"
    #expect(viewModel.statusBanner == nil)
    #expect(viewModel.errorMessage == "Invalid email format")
  }

  @Test func settingABannerHidesTheError() {
    viewModel.errorMessage = "Invalid email format"
    viewModel.statusBanner = .resetCodeSent
    #expect(viewModel.errorMessage == nil)
    #expect(viewModel.statusBanner == .resetCodeSent)
  }

  @Test func consentLivesInsideSignupAndResetsOnReturn() {
    viewModel.navigateToSignup()
    viewModel.updateConsent(true)
    viewModel.navigateToChoice()
    viewModel.navigateToSignup()
    #expect(viewModel.navigationState == .signup(consentAccepted: false))
  }

  /// Seed 002 scenario 10: "Email address", a secure field for the password, and a hint on
  /// every submit button.
  @Test func everyFieldAndSubmitButtonSpeaksToScreenReaders() {
    #expect(AuthField.email.accessibilityLabel == "Email address")
    #expect(AuthField.email.accessibilityTrait == "text field")
    #expect(AuthField.password.accessibilityTrait == "secure text field")
    for field in AuthField.allCases {
      #expect(!field.accessibilityLabel.isEmpty && !field.accessibilityHint.isEmpty)
    }
    let forms: [AuthNavigationState] = [
      .login, .signup(consentAccepted: false), .resetRequest, .resetVerify(pendingEmail: ""),
    ]
    for form in forms { #expect(form.submitAccessibilityHint != nil) }
    #expect(AuthNavigationState.choice.submitAccessibilityHint == nil)
    #expect(!AuthField.firstName.isRequired && AuthField.email.isRequired)
  }

  @Test func focusOrderFollowsTheSeed() {
    #expect(AuthNavigationState.choice.fields == [])
    #expect(AuthNavigationState.login.fields == [.email, .password])
    #expect(
      AuthNavigationState.signup(consentAccepted: false).fields
        == [.email, .password, .confirmPassword, .firstName, .lastName],
      "the seed's order, then seed 003's optional names")
    #expect(AuthNavigationState.resetRequest.fields == [.email])
    #expect(AuthNavigationState.resetVerify(pendingEmail: "a@b.co").fields == [.otp, .password])
    #expect(AuthNavigationState.login.field(after: .email) == .password)
    #expect(AuthNavigationState.login.field(after: .password) == nil)
    #expect(AuthNavigationState.login.field(after: .otp) == nil)
  }

  @Test func secretFieldsAreMarked() {
    #expect(AuthField.email.isSecret == false)
    #expect(AuthField.password.isSecret)
    #expect(AuthField.confirmPassword.isSecret)
    #expect(AuthField.otp.isSecret)
  }

  @Test func fieldsAreReachableByName() {
    for field in AuthField.allCases {
      viewModel.setValue("value-\(field.rawValue)", for: field)
      #expect(viewModel.value(of: field) == "value-\(field.rawValue)")
    }
    #expect(viewModel.confirmPassword == "value-confirm")
    #expect(viewModel.otpCode == "value-otp")
  }

  @Test func submitBlockerExplainsTheDisabledButton() {
    #expect(viewModel.submitBlocker == .noForm)
    viewModel.navigateToSignup()
    #expect(viewModel.submitBlocker == .missing(.email))
    viewModel.email = "new@example.com"
    viewModel.password = "Password1"
    #expect(viewModel.submitBlocker == .missing(.confirmPassword))
    viewModel.confirmPassword = "Password1"
    #expect(viewModel.submitBlocker == .consentRequired)
    viewModel.updateConsent(true)
    #expect(viewModel.submitBlocker == nil)
    #expect(viewModel.canSubmit)
    viewModel.updateNetworkStatus(.offline)
    #expect(viewModel.submitBlocker == .offline)
    viewModel.updateNetworkStatus(.online)
    viewModel.session = makeSession()
    #expect(viewModel.submitBlocker == .signedIn)
  }

  @Test(arguments: [UInt64(1), 2, 3, 42, 2025])
  func invariantsHoldUnderRandomIntents(seed: UInt64) async {
    service.stubSignIn(.failure(.invalidCredentials))
    service.stubSignUp(.failure(.duplicateEmail))
    service.stubPasswordReset(.success(()))
    service.stubResetPassword(.failure(.otpIncorrect))
    var random = SplitMix64(seed: seed)
    for step in 0..<400 {
      let intent = Intent.allCases[Int(random.next() % UInt64(Intent.allCases.count))]
      await intent.apply(to: viewModel)
      checkInvariants(after: intent, step: step)
    }
  }

  private func checkInvariants(after intent: Intent, step: Int) {
    let context = Comment(rawValue: "step \(step), after \(intent)")
    #expect(!(viewModel.errorMessage != nil && viewModel.statusBanner != nil), context)
    switch viewModel.navigationState {
    case .choice:
      if intent == .back {
        #expect(viewModel.email.isEmpty && viewModel.password.isEmpty, context)
        #expect(viewModel.confirmPassword.isEmpty && viewModel.otpCode.isEmpty, context)
        #expect(viewModel.errorMessage == nil && viewModel.statusBanner == nil, context)
      }
    case .resetVerify(let pendingEmail):
      #expect(!pendingEmail.isEmpty, context)
    case .login, .signup, .resetRequest:
      break
    }
    #expect(viewModel.isLoading == false, context)
  }
}

/// A user intent for the random runs.
private enum Intent: CaseIterable {
  case signIn, create, back, forgot, consentOn, consentOff, typeEmail, typeBadEmail
  case typePassword, typeConfirm, typeCode, submit, dismiss, offline, online

  @MainActor func apply(to viewModel: AuthViewModel) async {
    switch self {
    case .signIn: viewModel.navigateToLogin()
    case .create: viewModel.navigateToSignup()
    case .back: viewModel.navigateToChoice()
    case .forgot: if viewModel.navigationState == .login { viewModel.navigateToResetRequest() }
    case .consentOn: viewModel.updateConsent(true)
    case .consentOff: viewModel.updateConsent(false)
    case .typeEmail: viewModel.email = "test@example.com"
    case .typeBadEmail: viewModel.email = "not-an-email"
    case .typePassword: viewModel.password = "Password123"
    case .typeConfirm: viewModel.confirmPassword = "Password123"
    case .typeCode: viewModel.otpCode = "123456"
    case .submit: await viewModel.submit()
    case .dismiss: viewModel.dismissError()
    case .offline: viewModel.updateNetworkStatus(.offline)
    case .online: viewModel.updateNetworkStatus(.online)
    }
  }
}

/// A small seeded generator so random runs repeat exactly.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
