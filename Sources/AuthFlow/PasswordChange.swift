/// How a signed-in user's password change ended (seed 004's `updatePassword`).
public enum PasswordChangeResult: Equatable, Hashable, Sendable {
  /// The password is changed and the user stays signed in, with this session (GoTrue keeps
  /// the session; Firebase hands out new tokens, as the change revokes the old ones).
  case changed(AuthSession)
  /// The backend wants proof of a recent sign-in first (GoTrue's secure password change): it
  /// has emailed a code, and the change is asked for again with it as the nonce.
  case reauthenticationCodeSent

  /// The session the change left, if it was made.
  public var session: AuthSession? {
    if case .changed(let session) = self { session } else { nil }
  }
}
