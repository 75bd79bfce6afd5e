/// The codes GoTrue answers as an OAuth 2.1 server (`apierrors/errorcode.go`).
extension GoTrueErrorCode {
  /// No client has that `client_id` (or it was deleted).
  public static let oauthClientNotFound: Self = "oauth_client_not_found"
  /// No pending authorization has that `authorization_id` for this user.
  public static let oauthAuthorizationNotFound: Self = "oauth_authorization_not_found"
  /// The user has granted that client nothing.
  public static let oauthConsentNotFound: Self = "oauth_consent_not_found"
  /// `POST /oauth/clients/register` while dynamic registration is off.
  public static let oauthDynamicClientRegistrationDisabled: Self =
    "oauth_dynamic_client_registration_disabled"
}
