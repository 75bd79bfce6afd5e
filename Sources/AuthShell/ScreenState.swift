import AuthFlow

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A copy of what the view model shows, for rendering and for telling what a command changed.
public struct ScreenState: Equatable, Sendable {
  /// The screen and its payload.
  public var navigation: AuthNavigationState
  /// The email field.
  public var email: String
  /// The password field (a secret: renderers mask it).
  public var password: String
  /// The confirm-password field (a secret).
  public var confirmPassword: String
  /// The code field (a secret).
  public var otpCode: String
  /// The error on show.
  public var error: String?
  /// The banner on show.
  public var banner: AuthBanner?
  /// The signed-in session.
  public var session: AuthSession?
  /// The simulated network.
  public var network: NetworkStatus
  /// Why submit is disabled.
  public var submitBlocker: SubmitBlocker?
  /// The backend's name when it is not the embedded default, e.g. `supabase:abcd`.
  public var backendLabel: String?

  /// The state of `viewModel` now.
  @MainActor public init(_ viewModel: AuthViewModel, backendLabel: String? = nil) {
    self.backendLabel = backendLabel
    navigation = viewModel.navigationState
    email = viewModel.email
    password = viewModel.password
    confirmPassword = viewModel.confirmPassword
    otpCode = viewModel.otpCode
    error = viewModel.errorMessage
    banner = viewModel.statusBanner
    session = viewModel.session
    network = viewModel.networkStatus
    submitBlocker = viewModel.submitBlocker
  }

  /// The value of `field`.
  public func value(_ field: AuthField) -> String {
    switch field {
    case .email: email
    case .password: password
    case .confirmPassword: confirmPassword
    case .otp: otpCode
    }
  }
}

/// The parts of the state whose change a command reports: cheap to take before every command.
struct ChangeMarks: Equatable {
  var screen: AuthScreen
  /// The refresh token identifies a session version: it rotates on every refresh, while the
  /// access token can come out the same under a fixed clock.
  var sessionVersion: String?
  var error: String?
  var banner: AuthBanner?
  var network: NetworkStatus

  @MainActor init(_ viewModel: AuthViewModel) {
    screen = viewModel.navigationState.screen
    sessionVersion = viewModel.session?.refreshToken
    error = viewModel.errorMessage
    banner = viewModel.statusBanner
    network = viewModel.networkStatus
  }
}
