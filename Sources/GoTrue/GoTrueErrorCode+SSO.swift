/// The codes GoTrue's admin API answers about SSO providers (`apierrors/errorcode.go`).
extension GoTrueErrorCode {
  /// `metadata_url` answered with another status than 200.
  public static let samlMetadataFetchFailed: Self = "saml_metadata_fetch_failed"
  /// A provider with the metadata's `entityID` is there already.
  public static let samlIdPAlreadyExists: Self = "saml_idp_already_exists"
  /// An email domain belongs to another provider already.
  public static let ssoDomainAlreadyExists: Self = "sso_domain_already_exists"
  /// New metadata names another `entityID` than the provider's.
  public static let samlEntityIDMismatch: Self = "saml_entity_id_mismatch"
  /// A write met a concurrent one or a constraint: try again.
  public static let conflict: Self = "conflict"
}
