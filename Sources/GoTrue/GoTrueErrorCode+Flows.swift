/// The codes of PKCE, reauthentication, anonymous users and identities (`apierrors/errorcode.go`).
extension GoTrueErrorCode {
  /// The PKCE flow state is older than GoTrue's flow-state lifetime.
  public static let flowStateExpired: Self = "flow_state_expired"
  /// The PKCE verifier does not match the challenge the flow began with.
  public static let badCodeVerifier: Self = "bad_code_verifier"
  /// A password change needs the nonce `GET /reauthenticate` sent.
  public static let reauthenticationNeeded: Self = "reauthentication_needed"
  /// The reauthentication nonce is wrong, expired or was never sent.
  public static let reauthenticationNotValid: Self = "reauthentication_not_valid"
  /// The phone number has not been confirmed.
  public static let phoneNotConfirmed: Self = "phone_not_confirmed"
  /// The user's only identity cannot be removed.
  public static let singleIdentityNotDeletable: Self = "single_identity_not_deletable"
  /// The identity is not one of the user's.
  public static let identityNotFound: Self = "identity_not_found"
  /// Removing the identity would leave the user's email to no identity.
  public static let emailConflictIdentityNotDeletable: Self =
    "email_conflict_identity_not_deletable"
}
