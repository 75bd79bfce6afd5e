import AuthFlow
import AuthFlowGoTrue
import Foundation
import GoTrue
import HTTPClient
import SupabaseREST
import TestSupport
import Testing

/// GoTrue's error answers, in every shape, through the client and the one mapping to AuthError.
struct ErrorAnswerTests {
  private func failure(
    _ reply: ReplayTransport.Reply, during operation: GoTrueOperation = .signIn
  ) async -> (GoTrueFailure?, AuthError?) {
    let client = SupabaseGoTrueClient(project: testProject, transport: ReplayTransport(reply))
    do {
      _ = try await client.signIn(email: "test@example.com", password: "x")
      return (nil, nil)
    } catch {
      return (error, AuthError(error, during: operation))
    }
  }

  @Test(arguments: [
    (400, "error-invalid-credentials.json", GoTrueOperation.signIn, AuthError.invalidCredentials),
    (400, "error-email-not-confirmed.json", .signIn, .emailUnverified),
    (422, "error-user-already-exists.json", .signUp, .duplicateEmail),
    (429, "error-legacy-rate-limit.json", .signIn, .rateLimited),
    (429, "error-email-send-rate-limit.json", .recover, .retryAfter(seconds: 37)),
    (403, "error-otp-expired.json", .verifyRecovery, .otpRejected),
    (403, "error-otp-expired.json", .confirmEmail, .confirmationExpired),
    (422, "error-weak-password.json", .updatePassword, .weakPassword),
    (422, "error-same-password.json", .updatePassword, .samePassword),
    (403, "error-session-not-found.json", .refresh, .sessionExpired),
    (400, "error-refresh-token-already-used.json", .refresh, .sessionExpired),
    (400, "error-oauth-invalid-grant.json", .refresh, .sessionExpired),
    (500, "error-unexpected-failure.json", .signIn, .serverError),
    (502, "error-bad-gateway.html", .signIn, .serverError),
    (400, "truncated.json", .signUp, .unknown),
  ])
  func shapes(status: Int, file: String, operation: GoTrueOperation, expected: AuthError) async {
    let (failure, mapped) = await failure(reply(status, file), during: operation)
    #expect(mapped == expected, "\(file)")
    guard case .api(let error)? = failure else {
      Issue.record("expected an API error for \(file)")
      return
    }
    #expect(error.status == status)
  }

  @Test func everyShapeGivesCodeAndMessage() async {
    let cases: [(String, GoTrueErrorCode?, String)] = [
      ("error-invalid-credentials.json", .invalidCredentials, "Invalid login credentials"),
      ("error-legacy-rate-limit.json", .overRequestRateLimit, "Request rate limit reached"),
      ("error-oauth-invalid-grant.json", nil, "Invalid Refresh Token: Refresh Token Not Found"),
      ("error-bad-gateway.html", nil, "HTTP 400"),
      ("truncated.json", nil, "HTTP 400"),
    ]
    for (file, code, message) in cases {
      let (failure, _) = await failure(reply(400, file))
      guard case .api(let error)? = failure else {
        Issue.record("\(file)")
        continue
      }
      #expect(error.code == code, "\(file)")
      #expect(error.message == message, "\(file)")
    }
  }

  @Test func weakPasswordReasonsAreKept() async {
    let (failure, _) = await failure(reply(422, "error-weak-password.json"))
    guard case .api(let error)? = failure else {
      Issue.record("expected an API error")
      return
    }
    #expect(error.weakPasswordReasons == ["length"])
  }

  @Test func theErrorCodeHeaderIsAFallback() async {
    let (failure, mapped) = await failure(
      reply(429, nil, headers: ["x-sb-error-code": "over_email_send_rate_limit"]))
    #expect(failure?.code == .overEmailSendRateLimit)
    #expect(mapped == .rateLimited)
  }

  @Test(arguments: [
    TransportFailure.timedOut, .unreachable("Connection refused"),
    .unreachable("Could not resolve host"),
  ])
  func noAnswerIsNetworkUnavailable(failure: TransportFailure) async {
    let (raw, mapped) = await self.failure(.failure(failure))
    #expect(raw == .transport(failure.description))
    #expect(mapped == .networkUnavailable)
    #expect(
      AuthError.networkUnavailable.message
        == "Can't reach the server. Check your connection and try again.")
  }

  @Test(arguments: ["", "not json", #"{"access_token":"#, #"{"user":{}}"#])
  func garbageInASuccessIsMalformed(body: String) async {
    let (raw, mapped) = await failure(.response(HTTPResponse(status: 200, body: Data(body.utf8))))
    guard case .malformedResponse(let reason)? = raw else {
      Issue.record("expected malformedResponse for \(body)")
      return
    }
    #expect(reason.contains("POST /token answered 200"))
    #expect(mapped == .unknown)
  }

  @Test func aRedirectIsNeverTakenForAnAnswer() async {
    let (failure, error) = await failure(
      reply(302, headers: ["location": "https://elsewhere.example/steal"]))
    #expect(
      failure
        == .transport(
          "the server redirected to https://elsewhere.example/steal; authflow does not follow redirects"
        ))
    #expect(error == .networkUnavailable)
  }

  @Test func anOversizedAnswerIsMalformed() async {
    let (failure, error) = await failure(.failure(.tooLarge(limit: 1 << 20)))
    #expect(failure == .malformedResponse("the answer was larger than 1024 KiB"))
    #expect(error == .unknown)
  }
}
