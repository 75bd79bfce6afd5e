import Observation

/// The state and intents of the authentication flow, shared by every front end.
///
/// Navigation, form fields, the error or banner on show and the session all live here. User
/// intents change state synchronously; ``submit()`` validates, calls the injected
/// ``AuthService`` and applies the outcome in one place (see `AuthViewModel+Actions.swift`).
@MainActor
@Observable
public final class AuthViewModel {
  /// The screen on show. Setting it directly is allowed (the seed's tests do) and is tracked.
  public var navigationState: AuthNavigationState = .choice {
    didSet {
      if oldValue.screen != navigationState.screen {
        events(.screenViewed(navigationState.screen))
      }
    }
  }

  /// The email field.
  public var email = ""
  /// The password field; the new password on the reset-verify screen.
  public var password = ""
  /// The confirm-password field of the signup screen.
  public var confirmPassword = ""
  /// The reset-code field of the reset-verify screen.
  public var otpCode = ""

  /// The error on show. Setting one hides the banner: only one of the two shows at a time.
  public var errorMessage: String? {
    didSet { if errorMessage != nil, statusBanner != nil { statusBanner = nil } }
  }

  /// The banner on show. Setting one hides the error: only one of the two shows at a time.
  public var statusBanner: AuthBanner? {
    didSet { if statusBanner != nil, errorMessage != nil { errorMessage = nil } }
  }

  /// The signed-in session, or `nil` while signed out.
  public var session: AuthSession?

  /// Whether the network is reachable, as last reported by ``updateNetworkStatus(_:)``.
  public internal(set) var networkStatus: NetworkStatus

  /// The request being made of the backend right now, if any.
  public internal(set) var inFlight: AuthAction?

  @ObservationIgnored let service: any AuthService
  @ObservationIgnored let events: AuthEventSink

  /// A view model on the entry screen that talks to `service` and reports to `events`.
  public init(
    service: any AuthService, events: AuthEventSink = .none, networkStatus: NetworkStatus = .online
  ) {
    self.service = service
    self.events = events
    self.networkStatus = networkStatus
    events(.screenViewed(.choice))
  }

  // MARK: Derived state

  /// Whether a request to the backend is in flight.
  public var isLoading: Bool { inFlight != nil }

  /// Whether a user is signed in.
  public var isLoggedIn: Bool { session != nil }

  /// Whether the screen offers a way back to `.choice`; the entry screen itself does not.
  public var canNavigateBack: Bool { navigationState != .choice }

  /// Whether the submit button of the current screen is enabled.
  public var canSubmit: Bool { submitBlocker == nil }

  /// Why the submit button is disabled, or `nil` when it is enabled.
  public var submitBlocker: SubmitBlocker? {
    if session != nil { return .signedIn }
    if let inFlight { return .inFlight(inFlight) }
    if networkStatus == .offline { return .offline }
    switch navigationState {
    case .choice:
      return .noForm
    case .signup(let consentAccepted):
      if let field = firstEmptyField() { return .missing(field) }
      return consentAccepted ? nil : .consentRequired
    case .login, .resetRequest, .resetVerify:
      return firstEmptyField().map(SubmitBlocker.missing)
    }
  }

  /// The value of `field`.
  public func value(of field: AuthField) -> String {
    switch field {
    case .email: email
    case .password: password
    case .confirmPassword: confirmPassword
    case .otp: otpCode
    }
  }

  /// Sets `field` to `value`.
  public func setValue(_ value: String, for field: AuthField) {
    switch field {
    case .email: email = value
    case .password: password = value
    case .confirmPassword: confirmPassword = value
    case .otp: otpCode = value
    }
  }

  private func firstEmptyField() -> AuthField? {
    navigationState.fields.first { value(of: $0).isEmpty }
  }

  // MARK: Navigation (seed 001)

  /// Shows the sign-in form ("Sign In" on the choice screen). Keeps the form, drops old errors.
  public func navigateToLogin() {
    dismissMessages()
    navigationState = .login
  }

  /// Shows the signup form ("Create Account") with the terms not yet accepted.
  public func navigateToSignup() {
    dismissMessages()
    navigationState = .signup(consentAccepted: false)
  }

  /// Goes back to the entry screen, clearing every field, the error and the banner.
  public func navigateToChoice() {
    clearFormState()
    navigationState = .choice
  }

  /// Shows the reset-request form ("Forgot password?"), keeping the email.
  public func navigateToResetRequest() {
    password = ""
    dismissMessages()
    navigationState = .resetRequest
  }

  /// Accepts or withdraws consent to the terms; does nothing outside the signup screen.
  public func updateConsent(_ accepted: Bool) {
    guard case .signup = navigationState else { return }
    navigationState = .signup(consentAccepted: accepted)
  }

  /// Hides the error message.
  public func dismissError() {
    errorMessage = nil
  }

  /// Hides the banner.
  public func dismissBanner() {
    statusBanner = nil
  }

  /// Records the network status; going online hides the offline banner.
  public func updateNetworkStatus(_ status: NetworkStatus) {
    networkStatus = status
    if status == .online, statusBanner == .offline { statusBanner = nil }
  }

  /// Empties every field and hides the error and the banner (seed 000).
  public func clearFormState() {
    email = ""
    password = ""
    confirmPassword = ""
    otpCode = ""
    dismissMessages()
  }

  func dismissMessages() {
    errorMessage = nil
    statusBanner = nil
  }

  // MARK: Compatibility

  /// The screen as the deprecated ``AuthMode``; `nil` on the choice screen.
  @available(*, deprecated, renamed: "navigationState")
  public var mode: AuthMode? {
    get { AuthMode(navigationState) }
    set { navigationState = newValue?.navigationState ?? .choice }
  }
}

/// Why the submit button of the current screen is disabled.
public enum SubmitBlocker: Equatable, Hashable, Sendable {
  /// The screen has no form (the choice screen).
  case noForm
  /// A user is signed in, so the auth forms are not on show.
  case signedIn
  /// A request is already in flight.
  case inFlight(AuthAction)
  /// The device is offline.
  case offline
  /// A required field is empty.
  case missing(AuthField)
  /// The terms have not been accepted.
  case consentRequired
}
