import AuthFlow
import AuthFlowGoTrue
import Clocks
import Foundation
import GoTrue
import TestSupport
import Testing

/// The one mapping from GoTrue's wire errors to `AuthError`.
struct ErrorMappingTests {
  /// GoTrue's "after N seconds" is kept; a message without a sane N stays "Too many attempts".
  @Test(
    arguments: [
      ("For security purposes, you can only request this after 37 seconds.", 37),
      ("For security purposes, you can only request this after 1 second.", 1),
      ("email rate limit exceeded", nil),
      ("you can only request this after 0 seconds.", nil),
      ("you can only request this after 99999999 seconds.", nil),
      ("after x seconds", nil),
    ] as [(String, Int?)])
  func secondsToWait(message: String, seconds: Int?) {
    #expect(
      AuthError(
        .api(GoTrueAPIError(status: 429, code: .overEmailSendRateLimit, message: message)),
        during: .recover) == (seconds.map { .retryAfter(seconds: $0) } ?? .rateLimited))
  }

  @Test(arguments: [
    (GoTrueErrorCode.invalidCredentials, GoTrueOperation.signIn, AuthError.invalidCredentials),
    (.emailNotConfirmed, .signIn, .emailUnverified),
    (.userAlreadyExists, .signUp, .duplicateEmail),
    (.emailExists, .signUp, .duplicateEmail),
    (.overRequestRateLimit, .signIn, .rateLimited),
    (.overEmailSendRateLimit, .recover, .rateLimited),
    ("over_sms_send_rate_limit", .resend, .rateLimited),
    (.otpExpired, .verifyRecovery, .otpExpired),
    (.otpExpired, .confirmEmail, .confirmationExpired),
    (.otpAlreadyUsed, .verifyRecovery, .otpAlreadyUsed),
    (.otpAlreadyUsed, .confirmEmail, .emailAlreadyConfirmed),
    (.otpInvalid, .verifyRecovery, .otpIncorrect),
    (.weakPassword, .signUp, .weakPassword),
    (.samePassword, .updatePassword, .samePassword),
    (.sessionNotFound, .logout, .sessionExpired),
    (.sessionExpired, .refresh, .sessionExpired),
    (.refreshTokenNotFound, .refresh, .sessionExpired),
    (.refreshTokenAlreadyUsed, .refresh, .sessionExpired),
    (.badJWT, .updatePassword, .sessionExpired),
    (.noAuthorization, .logout, .sessionExpired),
    (.storeReadOnly, .signIn, .localStore(.readOnly)),
    (.storeFull, .signUp, .localStore(.full)),
    (.storeDamaged, .refresh, .localStore(.damaged)),
    (.storeUnavailable, .recover, .localStore(.unavailable)),
    (.validationFailed, .signUp, .unknown),
    (.signupDisabled, .signUp, .unknown),
    ("some_future_code", .signIn, .unknown),
    (.unexpectedFailure, .signUp, .serverError),
  ])
  func wireCodes(code: GoTrueErrorCode, operation: GoTrueOperation, expected: AuthError) {
    #expect(AuthError(apiError(400, code), during: operation) == expected)
  }

  @Test(arguments: [
    (429, "", GoTrueOperation.recover, AuthError.rateLimited),
    (400, "Invalid login credentials", .signIn, .invalidCredentials),
    (400, "Email not confirmed", .signIn, .emailUnverified),
    (400, "Invalid Refresh Token: Refresh Token Not Found", .refresh, .sessionExpired),
    (401, "", .logout, .sessionExpired),
    (403, "Token has expired or is invalid", .verifyRecovery, .otpExpired),
    (403, "Token has expired or is invalid", .confirmEmail, .confirmationExpired),
    (500, "boom", .signIn, .serverError),
    (503, "<html>Service Unavailable</html>", .refresh, .serverError),
    (400, "something else", .signUp, .unknown),
  ])
  func codelessAnswersGoByStatusAndMessage(
    status: Int, message: String, operation: GoTrueOperation, expected: AuthError
  ) {
    #expect(AuthError(apiError(status, nil, message), during: operation) == expected)
  }

  @Test func transportAndGarbage() {
    #expect(AuthError(.transport("timed out"), during: .signIn) == .networkUnavailable)
    #expect(AuthError(.malformedResponse("not JSON"), during: .signIn) == .unknown)
  }

  @Test func codesAreOpenAndRoundTrip() throws {
    let code = GoTrueErrorCode(rawValue: "brand_new_code")
    #expect(code.description == "brand_new_code")
    let data = try JSONEncoder().encode([code, .invalidCredentials])
    #expect(String(decoding: data, as: UTF8.self) == #"["brand_new_code","invalid_credentials"]"#)
    #expect(
      try JSONDecoder().decode([GoTrueErrorCode].self, from: data) == [code, .invalidCredentials])
    #expect(GoTrueFailure.transport("x").code == nil)
    #expect(apiError(400, .badJWT).code == .badJWT)
  }
}
