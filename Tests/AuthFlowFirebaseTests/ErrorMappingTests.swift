import AuthFlow
import AuthFlowFirebase
import Foundation
import HTTPClient
import IdentityToolkit
import TestSupport
import Testing

/// Google's error answers through the client and the one mapping to AuthError.
struct ErrorMappingTests {
  private func failure(_ reply: ReplayTransport.Reply) async -> FirebaseFailure? {
    let client = FirebaseClient(project: testProject, transport: ReplayTransport(reply))
    do {
      _ = try await client.signIn(email: "test@example.com", password: "x")
      return nil
    } catch {
      return error
    }
  }

  @Test(arguments: [
    ("EMAIL_EXISTS", FirebaseOperation.signUp, AuthError.duplicateEmail),
    ("INVALID_LOGIN_CREDENTIALS", .signIn, .invalidCredentials),
    ("EMAIL_NOT_FOUND", .signIn, .invalidCredentials),
    ("INVALID_PASSWORD", .signIn, .invalidCredentials),
    ("INVALID_EMAIL", .signIn, .emailRejected),
    ("INVALID_EMAIL", .signUp, .emailRejected),
    ("INVALID_EMAIL", .sendPasswordReset, .emailRejected),
    ("MISSING_EMAIL", .signUp, .invalidCredentials),
    ("MISSING_PASSWORD", .signIn, .invalidCredentials),
    ("USER_DISABLED", .signIn, .unknown),
    ("USER_DISABLED", .refresh, .sessionExpired),
    ("USER_DISABLED", .sendVerification, .sessionExpired),
    ("TOO_MANY_ATTEMPTS_TRY_LATER", .signIn, .rateLimited),
    ("TOO_MANY_ATTEMPTS_TRY_LATER", .sendPasswordReset, .rateLimited),
    ("WEAK_PASSWORD : Password should be at least 6 characters", .signUp, .weakPassword),
    ("WEAK_PASSWORD : Password should be at least 6 characters", .resetPassword, .weakPassword),
    ("PASSWORD_DOES_NOT_MEET_REQUIREMENTS : Missing password requirements", .signUp, .weakPassword),
    ("EXPIRED_OOB_CODE", .resetPassword, .otpExpired),
    ("EXPIRED_OOB_CODE", .confirmEmail, .confirmationExpired),
    ("INVALID_OOB_CODE", .resetPassword, .otpRejected),
    ("INVALID_OOB_CODE", .confirmEmail, .confirmationExpired),
    ("MISSING_OOB_CODE", .resetPassword, .otpRejected),
    ("INVALID_ID_TOKEN", .sendVerification, .sessionExpired),
    ("TOKEN_EXPIRED", .sendVerification, .sessionExpired),
    ("USER_NOT_FOUND", .refresh, .sessionExpired),
    ("INVALID_REFRESH_TOKEN", .refresh, .sessionExpired),
    ("MISSING_REFRESH_TOKEN", .refresh, .sessionExpired),
    ("MISSING_ID_TOKEN", .deleteAccount, .sessionExpired),
    ("CREDENTIAL_TOO_OLD_LOGIN_AGAIN", .deleteAccount, .sessionExpired),
    ("OPERATION_NOT_ALLOWED", .signUp, .unknown),
    ("ADMIN_ONLY_OPERATION", .signUp, .unknown),
    ("SOMETHING_NEW : a code from a newer server", .signIn, .unknown),
  ])
  func everyCode(message: String, operation: FirebaseOperation, expected: AuthError) async {
    guard case .api(let error)? = await failure(googleError(message)) else {
      Issue.record("expected an API error for \(message)")
      return
    }
    #expect(error.status == 400)
    #expect(error.message == message)
    #expect(AuthError(.api(error), during: operation) == expected, "\(message)")
    #expect(AuthError(identityToolkit: error, during: operation) == expected)
  }

  @Test func theDetailAfterTheColonIsKeptApart() async {
    let failure = await failure(googleError("WEAK_PASSWORD : Password should be at least 6"))
    #expect(failure?.code == .weakPassword)
    guard case .api(let error)? = failure else { return }
    #expect(error.detail == "Password should be at least 6")
  }

  @Test func googlesOwnFailuresAreServerErrors() async {
    let serverFailure = await failure(googleError("INTERNAL_ERROR", status: 500))
    #expect(serverFailure.map { AuthError($0, during: .signIn) } == .serverError)
    let html = await failure(
      .response(HTTPResponse(status: 502, body: Data("<html>Bad Gateway</html>".utf8))))
    #expect(html?.code == "UNKNOWN")
    #expect(html.map { AuthError($0, during: .signIn) } == .serverError)
    let notJSON = await failure(.response(HTTPResponse(status: 404, body: Data("nope".utf8))))
    #expect(notJSON.map { AuthError($0, during: .signIn) } == .serverError)
    let throttled = await failure(googleError("RESOURCE_EXHAUSTED", status: 429))
    #expect(throttled.map { AuthError($0, during: .signIn) } == .rateLimited)
  }

  @Test(arguments: ["", "not json", #"{"idToken":"#, #"{"localId":"uid-1"}"#])
  func garbageInASuccessIsAServerError(body: String) async {
    let failure = await failure(.response(HTTPResponse(status: 200, body: Data(body.utf8))))
    guard case .malformedResponse(let reason)? = failure else {
      Issue.record("expected malformedResponse for \(body)")
      return
    }
    #expect(reason.contains("accounts:signInWithPassword answered 200"))
    #expect(AuthError(FirebaseFailure.malformedResponse(reason), during: .signIn) == .serverError)
  }

  @Test func aSignInWaitingForASecondFactorSaysSo() async {
    let pending = #"""
      {"kind":"identitytoolkit#VerifyPasswordResponse","registered":true,"localId":"uid-1",
       "email":"test@example.com","mfaPendingCredential":"AbC","mfaInfo":[
       {"mfaEnrollmentId":"f-1","enrolledAt":"2025-01-01T00:00:00.000Z","totpInfo":{}}]}
      """#
    let failure = await failure(.response(HTTPResponse(status: 200, body: Data(pending.utf8))))
    #expect(failure == .secondFactorRequired)
    #expect(failure.map { AuthError($0, during: .signIn) } == .secondFactorRequired)
  }

  @Test(arguments: [
    TransportFailure.timedOut, .unreachable("Connection refused"), .cancelled,
    .unavailable("the helper is missing"),
  ])
  func noAnswerIsNetworkUnavailable(transportFailure: TransportFailure) async {
    let failure = await failure(.failure(transportFailure))
    #expect(failure == .transport(transportFailure.description))
    #expect(failure.map { AuthError($0, during: .signIn) } == .networkUnavailable)
  }

  @Test func aRedirectIsNeverFollowed() async {
    let failure = await failure(
      .response(HTTPResponse(status: 307, headers: ["location": "https://elsewhere.example/"])))
    #expect(
      failure
        == .transport(
          "the server redirected to https://elsewhere.example/; authflow does not follow redirects"
        ))
    #expect(failure.map { AuthError($0, during: .signIn) } == .networkUnavailable)
  }

  @Test func anOversizedAnswerIsMalformed() async {
    let failure = await failure(.failure(.tooLarge(limit: 1 << 20)))
    #expect(failure == .malformedResponse("the answer was larger than 1024 KiB"))
  }
}
