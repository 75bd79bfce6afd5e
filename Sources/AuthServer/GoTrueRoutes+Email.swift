import GoTrue
import GoTrueEngine
import HTTPServer

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The routes that send and check emailed codes and links.
extension GoTrueRoutes {
  static let email: [Route] = [
    Route(.recover, recover), Route(.verifyLink, verifyLink), Route(.verify, verify),
    Route(.otp, otp), Route(.magicLink, magicLink), Route(.resend, resend),
  ]

  /// `POST /recover`: `{}` whether or not the account exists.
  @Sendable static func recover(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    try context.limit(.recover)
    guard let email = try context.body().decode(GoTrueRecoverBody.self).email, !email.isEmpty
    else {
      throw .api(.invalid("Password recovery requires an email"))
    }
    try await context.engine.recover(email: email, redirectTo: context.redirectTo)
    return Answer.empty
  }

  /// `POST /otp`: a sign-in code by email (phones are off).
  @Sendable static func otp(_ context: RouteContext) async throws(GoTrueFailure) -> HTTPResponse {
    try context.limit(.otp)
    let body = try context.body().decode(GoTrueOTPBody.self)
    let email = body.email ?? ""
    let phone = body.phone ?? ""
    if !email.isEmpty, !phone.isEmpty {
      throw .api(.invalid("Only an email address or phone number should be provided"))
    }
    if !email.isEmpty, !(body.channel ?? "").isEmpty {
      throw .api(.invalid("Channel should only be specified with Phone OTP"))
    }
    if !phone.isEmpty {
      throw .api(
        GoTrueAPIError(
          status: 400, code: .phoneProviderDisabled, message: "Unsupported phone provider"))
    }
    guard !email.isEmpty else { throw .api(.invalid("One of email or phone must be set")) }
    try await context.engine.sendSignInCode(
      email: email, createUser: body.createUser ?? true, data: body.data ?? [:],
      redirectTo: context.redirectTo)
    return Answer.empty
  }

  /// `POST /magiclink`: the older route to a sign-in link.
  @Sendable static func magicLink(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    try context.limit(.magicLink)
    let body = try context.body().decode(GoTrueOTPBody.self)
    guard let email = body.email, !email.isEmpty else {
      throw .api(.invalid("Password recovery requires an email", status: 422))
    }
    try await context.engine.sendSignInCode(
      email: email, createUser: true, data: body.data ?? [:], redirectTo: context.redirectTo)
    return Answer.empty
  }

  /// `POST /resend`: `signup` and `email_change` (the phone types are off).
  @Sendable static func resend(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    try context.limit(.resend)
    let body = try context.body().decode(GoTrueResendBody.self)
    let type = body.type ?? ""
    let email = body.email ?? ""
    let phone = body.phone ?? ""
    let emailTypes = ["signup", "email_change"]
    let phoneTypes = ["sms", "phone_change"]
    guard emailTypes.contains(type) || phoneTypes.contains(type) else {
      throw .api(.invalid("Missing one of these types: signup, email_change, sms, phone_change"))
    }
    if !email.isEmpty, !phone.isEmpty {
      throw .api(.invalid("Only an email address or phone number should be provided."))
    }
    if email.isEmpty, phone.isEmpty {
      throw .api(.invalid("Missing email address or phone number"))
    }
    if emailTypes.contains(type), email.isEmpty {
      throw .api(.invalid("Type provided requires an email address"))
    }
    if phoneTypes.contains(type) {
      guard !phone.isEmpty else { throw .api(.invalid("Type provided requires a phone number")) }
      throw .api(
        GoTrueAPIError(
          status: 400, code: .phoneProviderDisabled, message: "Phone logins are disabled"))
    }
    try await context.engine.resend(
      type: type == "signup" ? .signup : .emailChange, email: email, redirectTo: context.redirectTo)
    return Answer.empty
  }

  /// `POST /verify`: a code with its email, or a link's token hash.
  @Sendable static func verify(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    try context.limit(.verify)
    let body = try context.body().decode(GoTrueVerifyBody.self)
    let type = try verificationType(body.type)
    let token = body.token ?? ""
    let tokenHash = body.tokenHash ?? ""
    guard token.isEmpty != tokenHash.isEmpty else {
      throw .api(.invalid("Verify requires either a token or a token hash"))
    }
    let email = body.email ?? ""
    let phone = body.phone ?? ""
    let outcome: GoTrueVerifyOutcome
    if !tokenHash.isEmpty {
      let redirect = body.redirectTo ?? ""
      if !email.isEmpty || !phone.isEmpty || !redirect.isEmpty {
        throw .api(.invalid("Only the token_hash and type should be provided"))
      }
      guard let type else { throw invalidLink }
      outcome = try await context.engine.verifyLink(type: type, tokenHash: tokenHash)
    } else {
      guard email.isEmpty != phone.isEmpty else {
        throw .api(.invalid("Only an email address or phone number should be provided on verify"))
      }
      // Phones are off: no phone code can match.
      guard let type, !email.isEmpty else { throw invalidCode }
      guard EmailFormat.isPlausible(email) else {
        throw .api(.invalid("Invalid email format", status: 422))
      }
      outcome = try await context.engine.verifyCode(type: type, email: email, code: token)
    }
    switch outcome {
    case .session(let session):
      return Answer.json(session)
    case .emailChangePending(let message):
      return Answer.json(JSONValue.object(["code": .string("200"), "msg": .string(message)]))
    }
  }

  /// `GET /verify?token=…&type=…&redirect_to=…`, the link in an email: verifies, then sends
  /// the browser on with the session (or the error) in the fragment, as GoTrue does.
  @Sendable static func verifyLink(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    // GoTrue's limiter runs before the handler: over it, the answer is JSON, not a redirect.
    try context.limit(.verify)
    let request = context.request
    let typeText = request.queryValue("type")
    let type = try verificationType(typeText)
    guard let token = request.queryValue("token"), !token.isEmpty else {
      throw .api(.invalid("Verify requires either a token or a token hash"))
    }
    let target = context.engine.allowedRedirect(context.redirectTo)
    var fragment: [(String, String)]
    do throws(GoTrueFailure) {
      guard let type else { throw invalidLink }
      switch try await context.engine.verifyLink(type: type, tokenHash: token) {
      case .session(let session):
        fragment = [
          ("access_token", session.accessToken), ("expires_at", "\(session.expiresAt ?? 0)"),
          ("expires_in", "\(session.expiresIn)"), ("refresh_token", session.refreshToken),
          ("sb", ""), ("token_type", session.tokenType), ("type", typeText ?? ""),
        ]
      case .emailChangePending(let message):
        fragment = [("message", message), ("sb", "")]
      }
    } catch {
      guard case .api(var apiError) = error else { throw error }
      if [.otpInvalid, .otpAlreadyUsed].contains(apiError.code) { apiError.code = .otpExpired }
      fragment = [
        ("error_code", apiError.code?.rawValue ?? "unexpected_failure"),
        ("error_description", apiError.message), ("sb", ""),
      ]
      if let oauthError = oauthErrors[apiError.status] { fragment.append(("error", oauthError)) }
    }
    let base = target.split(separator: "#", maxSplits: 1).first.map(String.init) ?? target
    return Answer.seeOther(base + "#" + FormEncoding.encode(fragment))
  }

  /// The `error` GoTrue adds to a redirect for these statuses (OAuth's names).
  private static let oauthErrors = [
    400: "invalid_request", 401: "unauthorized_client", 403: "access_denied",
    500: "server_error", 503: "temporarily_unavailable",
  ]

  /// The verification type named `text`, `nil` for GoTrue's phone types (off here), or 400.
  private static func verificationType(_ text: String?) throws(GoTrueFailure) -> GoTrueOTPType? {
    guard let text, !text.isEmpty else {
      throw .api(.invalid("Verify requires a verification type"))
    }
    if ["sms", "phone_change"].contains(text) { return nil }
    guard let type = GoTrueOTPType(rawValue: text) else {
      throw .api(.invalid("Unsupported verification type"))
    }
    return type
  }

  private static let invalidCode = GoTrueFailure.api(
    GoTrueAPIError(status: 403, code: .otpExpired, message: "Token has expired or is invalid"))

  private static let invalidLink = GoTrueFailure.api(
    GoTrueAPIError(status: 403, code: .otpExpired, message: "Email link is invalid or has expired"))
}

/// The loose check GoTrue makes of an email on `/verify`: something, an `@`, something.
enum EmailFormat {
  static func isPlausible(_ email: String) -> Bool {
    let parts = email.split(separator: "@", omittingEmptySubsequences: false)
    return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty && email.utf8.count <= 255
  }
}
