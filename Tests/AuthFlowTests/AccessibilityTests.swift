import AuthFlow
import Testing

/// Seed 002 scenario 10: every control of every screen has a label, a trait and a hint for
/// VoiceOver, and errors and banners are announced when they appear.
struct AccessibilityTests {
  @Test func theChoiceScreensButtonsAreAnnouncedAsTheSeedSays() {
    let announced = AuthScreen.choice.controls.map {
      $0.accessibility(on: .choice).announcement()
    }
    #expect(
      announced == [
        "Sign In, button. Opens the sign-in form.",
        "Create Account, button. Opens the form to create an account.",
      ])
    #expect(AuthControl.signIn.accessibility(on: .choice).label == "Sign In")
  }

  @Test func fieldsAreTextFieldsAndSecretsSecureTextFields() {
    let email = AuthControl.field(.email).accessibility(on: .login)
    #expect(email.label == "Email address")
    #expect(email.announcement().hasPrefix("Email address, text field. "))
    #expect(
      AuthControl.field(.password).accessibility(on: .login).announcement()
        .hasPrefix("Password, secure text field. "))
    #expect(
      AuthControl.field(.password).accessibility(on: .resetVerify).label == "New password")
    for field in AuthField.allCases {
      let trait = AuthControl.field(field).accessibility(on: .signup).trait
      #expect(trait == (field.isSecret ? .secureTextField : .textField))
    }
  }

  @Test func everyControlOfEveryScreenHasALabelAndAHint() {
    for screen in AuthScreen.allCases {
      #expect(!screen.controls.isEmpty)
      for control in screen.controls {
        let description = control.accessibility(on: screen)
        #expect(!description.label.isEmpty, "\(control) on \(screen)")
        #expect(description.hint?.isEmpty == false, "\(control) on \(screen)")
      }
    }
  }

  @Test func eachScreenListsItsFieldsInFocusOrderAndBackOnEveryForm() {
    let states: [AuthNavigationState] = [
      .choice, .login, .signup(consentAccepted: false), .resetRequest,
      .resetVerify(pendingEmail: ""),
    ]
    for state in states {
      let fields = state.screen.controls.compactMap { control -> AuthField? in
        if case .field(let field) = control { field } else { nil }
      }
      #expect(fields == state.fields)
      #expect(state.screen.controls.contains(.back) == (state != .choice))
      #expect(state.screen.controls.contains(.submit) == (state != .choice))
    }
    #expect(AuthScreen.signup.controls.contains(.consent))
    #expect(AuthScreen.login.controls.contains(.forgotPassword))
  }

  @Test func theConsentSwitchAndTheLinkSayWhatTheyAre() {
    #expect(
      AuthControl.consent.accessibility(on: .signup).announcement(value: "off")
        == "Consent, switch, off. Accept the terms of service and the privacy policy to continue.")
    #expect(AuthControl.forgotPassword.accessibility(on: .login).trait == .link)
    #expect(AuthControl.forgotPassword.accessibility(on: .login).label == "Forgot password?")
  }

  @Test func aDisabledSubmitButtonIsDimmedAndSaysWhatItDoes() {
    let submit = AuthControl.submit.accessibility(on: .login)
    #expect(
      submit.announcement(enabled: false)
        == "Sign In, button, dimmed. Signs in with the email address and password.")
    #expect(AuthControl.submit.accessibility(on: .signup).label == "Create Account")
    #expect(submit.hint == AuthNavigationState.login.submitAccessibilityHint)
  }

  @Test func aNewErrorOrBannerIsAnnouncedOnce() {
    let before = AuthFlowState(navigation: .login)
    var after = before
    after.message = .error("Password is required")
    #expect(after.accessibilityAnnouncement(since: before) == "Error: Password is required")
    #expect(after.accessibilityAnnouncement(since: after) == nil)
    #expect(before.accessibilityAnnouncement(since: after) == nil)
    after.message = .banner(.offline)
    #expect(
      after.accessibilityAnnouncement(since: before)
        == "Warning: You're offline. Try again once you're connected.")
    after.message = .banner(.confirmationSent)
    #expect(
      after.accessibilityAnnouncement(since: before)
        == "Check your email to confirm your account, then sign in.")
  }
}
