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
    var otpReasonUnknown = false
    if code == .otpExpired {
      if let reason = headers[otpReasonHeader.lowercased()],
        let refined = otpReasons.first(where: { $0.1 == reason })?.0
      {
        code = refined
      } else {
        otpReasonUnknown = true
      }
    }
    var reasons: [String] = []
    if case .object(let weak)? = object["weak_password"], case .array(let list)? = weak["reasons"] {
      reasons = list.compactMap(\.stringValue)
    }
    return GoTrueAPIError(
      status: status, code: code, message: message, weakPasswordReasons: reasons,
      otpReasonUnknown: otpReasonUnknown)
  }

  /// The header in which authflow's server says why a code failed (`invalid`, `expired` or
  /// `used`) while the body keeps GoTrue's single `otp_expired`.
  public static let otpReasonHeader = "X-Authflow-Otp-Reason"

  private static let otpReasons: [(GoTrueErrorCode, String)] = [
    (.otpInvalid, "invalid"), (.otpExpired, "expired"), (.otpAlreadyUsed, "used"),
  ]

  private static func otpReason(of code: GoTrueErrorCode) -> String? {
    otpReasons.first { $0.0 == code }?.1
  }

  /// Whether a request asked for the versioned error shape: its `X-Supabase-Api-Version` is a
  /// date (exactly `YYYY-MM-DD`) on or after 2024-01-01. Anything else, including a malformed
  /// date, gets the legacy shape, as GoTrue decides (`apiversions.go`).
  public static func asksForVersionedShape(_ header: String?) -> Bool {
    guard let header, header.utf8.count == 10 else { return false }
    let parts = header.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
      (1...12).contains(month), (1...31).contains(day)
    else { return false }
    return year >= 2024
  }

  /// An error answer as a GoTrue server writes it: the body in the shape the request asked for,
  /// and the headers to send (`x-sb-error-code`, and the resolved API version when versioned).
  ///
  /// A wrong, an expired and an already-used code all go out as GoTrue's `otp_expired`; which
  /// of the three it was rides in ``otpReasonHeader``, for clients that know to look.
  public static func encode(_ error: GoTrueAPIError, versioned: Bool) -> (
    headers: [(String, String)], body: [UInt8]
  ) {
    if let oauthError = error.oauthError {
      // GoTrue's `handleResponseErrorOAuth`: the OAuth body alone, no code header.
      var object: [String: JSONValue] = ["error": .string(oauthError)]
      if !error.message.isEmpty { object["error_description"] = .string(error.message) }
      return ([], JSONValue.object(object).jsonBytes)
    }
    var error = error
    let otpReason = error.code.flatMap(otpReason(of:))
    if otpReason != nil { error.code = .otpExpired }
    let code = error.code?.rawValue ?? (error.status >= 500 ? "unexpected_failure" : "unknown")
    var object: [String: JSONValue]
    if versioned {
      object = ["code": .string(code), "message": .string(error.message)]
    } else {
      object = [
        "code": .number(Double(error.status)), "error_code": .string(code),
        "msg": .string(error.message),
      ]
    }
    if error.code == .weakPassword {
      let reasons = JSONValue.array(error.weakPasswordReasons.map(JSONValue.string))
      object["weak_password"] = .object(["reasons": reasons])
    }
    var headers: [(String, String)] = []
    // GoTrue repeats the code in a header when the error has one (its versioned weak-password
    // answer leaves it out).
    if error.code != nil, !(versioned && error.code == .weakPassword) {
      headers.append(("x-sb-error-code", code))
    }
    if versioned { headers.append(("X-Supabase-Api-Version", versionedShapeSince)) }
    if let otpReason { headers.append((otpReasonHeader, otpReason)) }
    return (headers, JSONValue.object(object).jsonBytes)
  }
}
