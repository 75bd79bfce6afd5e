import AuthFlow

// The app code of docs/library.md ("In an app") and of the DocC catalogue's article (InAnApp),
// between the markers as it stands there after `import AuthFlow` and `import SwiftUI`;
// AppSnippetTests checks they are the same text.

// page begin
/// The app's root view: one screen for each navigation state (seed 001's coordinator view).
struct AuthCoordinatorView: View {
  @Bindable var viewModel: AuthViewModel

  var body: some View {
    switch viewModel.navigationState {
    case .choice:
      VStack {
        Button(label(.signIn, on: .choice)) { viewModel.navigateToLogin() }
        Button(label(.createAccount, on: .choice)) { viewModel.navigateToSignup() }
      }
    case .login:
      AuthLoginView(viewModel: viewModel)
    case .signup, .resetRequest, .resetVerify:
      // The other screens follow AuthLoginView: their fields are navigationState.fields.
      Text(viewModel.navigationState.screen.rawValue)
    }
  }
}

/// Seed 001's sign-in screen: the fields, the error or banner, and the buttons.
struct AuthLoginView: View {
  @Bindable var viewModel: AuthViewModel

  var body: some View {
    Form {
      if let banner = viewModel.statusBanner { Text(banner.message) }
      TextField(label(.field(.email), on: .login), text: $viewModel.email)
      SecureField(label(.field(.password), on: .login), text: $viewModel.password)
      if let error = viewModel.errorMessage { Text(error) }
      Button(label(.submit, on: .login)) { Task { await viewModel.submit() } }
        .disabled(!viewModel.canSubmit)
        .accessibilityHint(Text(AuthScreen.login.submitAccessibilityHint ?? ""))
      Button(label(.forgotPassword, on: .login)) { viewModel.navigateToResetRequest() }
      Button(label(.back, on: .login)) { viewModel.navigateToChoice() }
    }
  }
}

/// A control's label, as the library words it for the screen and for VoiceOver.
@MainActor func label(_ control: AuthControl, on screen: AuthScreen) -> String {
  control.accessibility(on: screen).label
}
// page end
