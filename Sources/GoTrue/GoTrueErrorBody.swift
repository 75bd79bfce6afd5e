#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// GoTrue's error bodies, both ways: read leniently by clients, written exactly by servers.
///
/// GoTrue answers errors in one of these shapes:
///
/// - `{"code": "<error_code>", "message": …}` when the request asked for API version 2024-01-01,
/// - `{"code": <status>, "error_code": …, "msg": …}` otherwise (the legacy shape),
/// - `{"error": …, "error_description": …}` (OAuth style, e.g. `invalid_grant`, older servers),
///
/// with `weak_password.reasons` on a weak password, and the code repeated in `x-sb-error-code`.
public enum GoTrueErrorBody {
  /// The API version from which errors take the `code`/`message` shape.
  public static let versionedShapeSince = "2024-01-01"

  /// Reads an error answer in any of its shapes (supabase-swift's rules), with the
  /// `x-sb-error-code` header as a fallback. A body that is not JSON (a proxy's HTML page,
  /// nothing, half an object) still gives the status. `headers` have lowercase names.
  public static func decode(status: Int, headers: [String: String], body: Data) -> GoTrueAPIError {
    let object: [String: JSONValue] =
      (try? JSONDecoder().decode([String: JSONValue].self, from: body)) ?? [:]
    var code: GoTrueErrorCode?
    if let errorCode = object["error_code"]?.stringValue {
      code = GoTrueErrorCode(rawValue: errorCode)
    } else if let textCode = object["code"]?.stringValue {
      code = GoTrueErrorCode(rawValue: textCode)
    } else if let header = headers["x-sb-error-code"], !header.isEmpty {
      code = GoTrueErrorCode(rawValue: header)
    }
    let message =
      object["msg"]?.stringValue ?? object["message"]?.stringValue
      ?? object["error_description"]?.stringValue ?? object["error"]?.stringValue
      ?? "HTTP \(status)"
    var reasons: [String] = []
    if case .object(let weak)? = object["weak_password"], case .array(let list)? = weak["reasons"] {
      reasons = list.compactMap(\.stringValue)
    }
    return GoTrueAPIError(
      status: status, code: code, message: message, weakPasswordReasons: reasons)
  }
}
