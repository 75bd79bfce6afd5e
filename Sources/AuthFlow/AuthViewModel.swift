import Observation

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The state and intents of the authentication flow, shared by every front end.
///
/// The whole state is one value, ``state``; the contract's names (`navigationState`,
/// `email`, `errorMessage`, `statusBanner`, …) read and write parts of it. User intents change
/// state synchronously; ``submit()`` validates, calls the injected ``AuthService`` and applies
/// the outcome in one place (see `AuthViewModel+Actions.swift`).
@MainActor
public final class AuthViewModel: Observable {
  /// Everything the flow shows, as one value.
  ///
  /// Observed as `@Observable` would observe it, by hand so that reading it costs what reading
  /// a stored property does: its key path is made once (a key path written in each accessor is
  /// looked up again on every read, and a script reads the state several times a line), it is
  /// lent to readers rather than copied, and the read is inlined into callers in other modules
  /// (a read coroutine called across modules allocates its frame on the heap).
  public internal(set) var state: AuthFlowState {
    @inlinable _read {
      // Lent, not copied: reading one part (`state.session`) copies only that part.
      observationRegistrar.access(self, keyPath: Self.stateKeyPath)
      yield storedState
    }
    set {
      observationRegistrar.withMutation(of: self, keyPath: Self.stateKeyPath) {
        storedState = newValue
      }
    }
    _modify {
      observationRegistrar.access(self, keyPath: Self.stateKeyPath)
      observationRegistrar.willSet(self, keyPath: Self.stateKeyPath)
      defer { observationRegistrar.didSet(self, keyPath: Self.stateKeyPath) }
      yield &storedState
    }
  }
  @usableFromInline var storedState = AuthFlowState()
  @usableFromInline static let stateKeyPath: KeyPath<AuthViewModel, AuthFlowState> = \.state
  /// Who observes the state: the one observed property.
  @usableFromInline let observationRegistrar = ObservationRegistrar()

  /// The backend, asked only through ``send(_:whenCut:)`` (and for what it keeps locally).
  let service: any AuthService
  /// What the requests travel over, when something besides the backend decides whether they
  /// arrive (the shell's simulated network); `nil` in an app.
  let link: (any AuthLink)?
  let events: AuthEventSink
  /// The time, for judging when the access token is due for renewal.
  let now: @Sendable () -> Date
  /// The sessions signed out while offline that the backend has yet to be told about.
  var unsentSignOuts: [AuthSession] = []
  /// The subscribers of ``sessionUpdates()``.
  private var subscribers: [Int: AsyncStream<SessionUpdate>.Continuation] =
    [:]
  private var nextSubscriber = 0

  /// A view model on the entry screen that talks to `service` and reports to `events`;
  /// `now` tells the time its tokens are judged by (the backend's clock).
  public convenience init(
    service: any AuthService, events: AuthEventSink = .none, networkStatus: NetworkStatus = .online,
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.init(service: service, link: nil, events: events, networkStatus: networkStatus, now: now)
  }

  /// A view model whose requests to `service` travel over `link`, which may cut them (the
  /// shell's `network unreachable`); otherwise as ``init(service:events:networkStatus:now:)``.
  package init(
    service: any AuthService, link: (any AuthLink)?, events: AuthEventSink = .none,
    networkStatus: NetworkStatus = .online, now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.service = service
    self.link = link
    self.events = events
    self.now = now
    state.network = networkStatus
    state.resetCodeFormat = service.resetCodeFormat
    events(.screenViewed(.choice))
  }

  // MARK: The contract's names for parts of the state

  /// The screen on show. Setting it directly is allowed (tests of the contract do) and a new
  /// screen is reported as viewed.
  public var navigationState: AuthNavigationState {
    get { state.navigation }
    set { update { $0.navigation = newValue } }
  }

  /// Applies `change` to the state as one mutation (one notification to observers), and reports
  /// a screen that came into view.
  func update(_ change: (inout AuthFlowState) -> Void) {
    let screen = state.navigation.screen
    change(&state)
    let now = state.navigation.screen
    if now != screen { events(.screenViewed(now)) }
  }

  /// The email field.
  public var email: String {
    get { state.form.email }
    set { state.form.email = newValue }
  }

  /// The password field; the new password on the reset-verify screen.
  public var password: String {
    get { state.form.password }
    set { state.form.password = newValue }
  }

  /// The confirm-password field of the signup screen.
  public var confirmPassword: String {
    get { state.form.confirmPassword }
    set { state.form.confirmPassword = newValue }
  }

  /// The reset-code field of the reset-verify screen.
  public var otpCode: String {
    get { state.form.otpCode }
    set { state.form.otpCode = newValue }
  }

  /// The error on show. Setting one replaces the banner: there is one message at a time.
  public var errorMessage: String? {
    get { state.errorMessage }
    set {
      if let newValue {
        state.message = .error(newValue)
      } else if state.errorMessage != nil {
        state.message = nil
      }
    }
  }

  /// The banner on show. Setting one replaces the error: there is one message at a time.
  public var statusBanner: AuthBanner? {
    get { state.banner }
    set {
      if let newValue {
        state.message = .banner(newValue)
      } else if state.banner != nil {
        state.message = nil
      }
    }
  }

  /// The signed-in session, or `nil` while signed out.
  public var session: AuthSession? {
    get { state.session }
    set { state.session = newValue }
  }

  /// Whether the network is reachable, as last reported by ``updateNetworkStatus(_:)``.
  public var networkStatus: NetworkStatus { state.network }

  /// The request being made of the backend right now, if any.
  public var inFlight: AuthAction? { state.inFlight }

  // MARK: Derived state

  /// Whether a request to the backend is in flight.
  public var isLoading: Bool { state.inFlight != nil }

  /// Whether a user is signed in.
  @inlinable public var isLoggedIn: Bool { state.session != nil }

  /// Whether the screen offers a way back to `.choice`; the entry screen itself does not.
  public var canNavigateBack: Bool { state.navigation != .choice }

  /// Whether the submit button of the current screen is enabled.
  public var canSubmit: Bool { state.canSubmit }

  /// Why the submit button is disabled, or `nil` when it is enabled.
  public var submitBlocker: SubmitBlocker? { state.submitBlocker }

  /// The value of `field`.
  public func value(of field: AuthField) -> String { state.form[field] }

  /// Sets `field` to `value`.
  public func setValue(_ value: String, for field: AuthField) { state.form[field] = value }

  // MARK: Navigation

  /// Shows the sign-in form ("Sign In" on the choice screen). Keeps the form, drops old errors.
  public func navigateToLogin() {
    update { state in
      state.message = nil
      state.navigation = .login
    }
  }

  /// Shows the signup form ("Create Account") with the terms not yet accepted.
  public func navigateToSignup() {
    update { state in
      state.message = nil
      state.navigation = .signup(consentAccepted: false)
    }
  }

  /// Goes back to the entry screen, clearing every field, the error and the banner.
  public func navigateToChoice() {
    update { state in
      state.form = AuthForm()
      state.message = nil
      state.navigation = .choice
    }
  }

  /// Shows the reset-request form ("Forgot password?"), keeping the email.
  public func navigateToResetRequest() {
    update { state in
      state.form.password = ""
      state.message = nil
      state.navigation = .resetRequest
    }
  }

  /// Accepts or withdraws consent to the terms; does nothing outside the signup screen.
  public func updateConsent(_ accepted: Bool) {
    guard case .signup(let current) = state.navigation, current != accepted else { return }
    state.navigation = .signup(consentAccepted: accepted)
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
    state.network = status
    if status == .online, state.banner == .offline { state.message = nil }
  }

  /// Empties every field and hides the error and the banner.
  public func clearFormState() {
    update { state in
      state.form = AuthForm()
      state.message = nil
    }
  }

  // MARK: Compatibility

  /// The screen as the deprecated ``AuthMode``; `nil` on the choice screen.
  @available(*, deprecated, renamed: "navigationState")
  public var mode: AuthMode? {
    get { AuthMode(navigationState) }
    set { navigationState = newValue?.navigationState ?? .choice }
  }
}

extension AuthViewModel {
  /// The session's changes from now on (signed in, refreshed, signed out, expired, restored),
  /// for code that is not SwiftUI: seed 003's user-state publisher, seed 004's
  /// `onAuthStateChange`. Read ``session`` for where things stand now. The stream ends when
  /// the view model goes away; each call makes a new subscriber.
  public func sessionUpdates() -> AsyncStream<SessionUpdate> {
    let (stream, continuation) = AsyncStream.makeStream(of: SessionUpdate.self)
    let id = nextSubscriber
    nextSubscriber += 1
    subscribers[id] = continuation
    continuation.onTermination = { [weak self] _ in
      Task { @MainActor in self?.subscribers[id] = nil }
    }
    return stream
  }

  /// Sends `change` to the analytics sink (no user data) and to every subscriber (with the
  /// session as it is now).
  func publish(_ change: SessionChange) {
    events(.sessionChanged(change))
    let update = SessionUpdate(change: change, session: state.session)
    for continuation in subscribers.values { continuation.yield(update) }
  }
}
