/// The codes GoTrue answers when one of its HTTP hooks fails (`apierrors/errorcode.go`).
extension GoTrueErrorCode {
  /// The hook did not answer within its time (5 seconds).
  public static let hookTimeout: Self = "hook_timeout"
  /// The hook could not be reached in any of its attempts.
  public static let hookTimeoutAfterRetry: Self = "hook_timeout_after_retry"
  /// The hook's answer is larger than GoTrue reads (200 KB).
  public static let hookPayloadOverSizeLimit: Self = "hook_payload_over_size_limit"
  /// The hook's answer is not `application/json`.
  public static let hookPayloadInvalidContentType: Self = "hook_payload_invalid_content_type"
}
