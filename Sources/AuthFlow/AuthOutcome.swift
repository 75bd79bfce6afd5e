/// What an action of the flow came to, returned by the action itself: an app or the shell
/// reads what happened from this value instead of guessing it from the banner or the events.
/// The state shows the same outcome to the user (``AuthViewModel/errorMessage``,
/// ``AuthViewModel/statusBanner``); the events tell analytics.
public enum AuthOutcome: Equatable, Sendable {
  /// Nothing was done: the action does not apply now (the choice screen, another request in
  /// flight, no one signed in).
  case notRun
  /// The form was refused before any request, for this reason.
  case invalid(ValidationIssue)
  /// The network is off: no request was made.
  case offline
  /// The backend (or the device's store) refused or failed.
  case failed(AuthError)
  /// The screen changed, or the task was cancelled, while the request ran: its answer was
  /// not shown (a session it made is kept).
  case superseded
  /// It succeeded, with what it did.
  case succeeded(AuthSuccess)

  /// Whether it succeeded.
  public var succeeded: Bool {
    if case .succeeded = self { return true }
    return false
  }

  /// The problem of the device's own store (the saved session), when that is what failed.
  public var localStoreProblem: LocalStoreProblem? {
    if case .failed(.localStore(let problem)) = self { return problem }
    return nil
  }
}

/// What a successful action did.
public enum AuthSuccess: Equatable, Sendable {
  /// Done, with nothing more to say than the state shows.
  case done
  /// The user signed in (the session is on show).
  case signedIn
  /// A signup ended so (a new account, or a confirmation sent again to one waiting).
  case signedUp(SignUpResult)
  /// A reset code or link was sent to the address.
  case resetCodeSent(email: String)
  /// The password was reset; the sign-in form has the address.
  case passwordReset(email: String)
  /// The signed-in user's password was changed.
  case passwordChanged
  /// The backend wants proof of a recent sign-in first: it emailed a code, which the change
  /// asked for again spends.
  case reauthenticationCodeSent

  /// Whether a signup made a new account (not a confirmation sent again to one waiting).
  public var createdAnAccount: Bool {
    guard case .signedUp(let result) = self else { return false }
    return result != .confirmationResentToExistingAccount
  }
}
