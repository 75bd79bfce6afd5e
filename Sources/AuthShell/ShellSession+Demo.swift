import AuthFlow
import GoTrueEngine

extension ShellSession {
  /// `reset-demo`: the demo accounts as a new store has them. A demo account signed in here is
  /// signed out first: its account is replaced.
  func resetDemoAccounts() async -> CommandOutput {
    guard let restore = backend.restoreDemoAccounts else { return .done }
    let demo = [DemoAccounts.confirmed.email, DemoAccounts.unconfirmed.email]
    if let email = viewModel.session?.user.email,
      demo.contains(AuthValidation.normalizedEmail(email))
    {
      let signedOut = await signOut()
      if signedOut.localStoreProblem != nil { return .told(signedOut) }
    }
    do throws(AuthError) {
      try restore()
    } catch {
      return CommandOutput(result: .mistake(.backendUnavailable(error.message)))
    }
    return .printed([DemoAccountsText.restored])
  }
}
