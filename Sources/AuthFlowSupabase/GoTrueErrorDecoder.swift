import AuthFlowHTTP
import GoTrue

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reads a GoTrue error answer in any of its shapes, leniently (supabase-swift's rules):
///
/// - `{"code": "<error_code>", "message": …}` (API version 2024-01-01),
/// - `{"code": <status>, "error_code": …, "msg": …}` (older servers),
/// - `{"error": …, "error_description": …}` (OAuth style, e.g. `invalid_grant`),
///
/// with `weak_password.reasons` when present, and the `x-sb-error-code` header as a fallback.
/// A body that is not JSON (a proxy's HTML page, nothing, half an object) still gives the status.
enum GoTrueErrorDecoder {
  static func decode(_ response: HTTPResponse) -> GoTrueAPIError {
    let object: [String: JSONValue] =
      (try? JSONDecoder().decode([String: JSONValue].self, from: response.body)) ?? [:]
    var code: GoTrueErrorCode?
    if let errorCode = object["error_code"]?.stringValue {
      code = GoTrueErrorCode(rawValue: errorCode)
    } else if let textCode = object["code"]?.stringValue {
      code = GoTrueErrorCode(rawValue: textCode)
    } else if let header = response.headers["x-sb-error-code"], !header.isEmpty {
      code = GoTrueErrorCode(rawValue: header)
    }
    let message =
      object["msg"]?.stringValue ?? object["message"]?.stringValue
      ?? object["error_description"]?.stringValue ?? object["error"]?.stringValue
      ?? "HTTP \(response.status)"
    var reasons: [String] = []
    if case .object(let weak)? = object["weak_password"], case .array(let list)? = weak["reasons"] {
      reasons = list.compactMap(\.stringValue)
    }
    return GoTrueAPIError(
      status: response.status, code: code, message: message, weakPasswordReasons: reasons)
  }
}
