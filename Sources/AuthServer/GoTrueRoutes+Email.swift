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
    Route(.recover, recover, limit: .recover),
    // GoTrue's limiter runs before the handler: over it, the answer is JSON, not a redirect.
    Route(.verifyLink, verifyLink, limit: .verify), Route(.verify, verify, limit: .verify),
    Route(.otp, otp, limit: .otp), Route(.magicLink, magicLink, limit: .magicLink),
    Route(.resend, resend, limit: .resend),
  ]

  /// `POST /recover`: `{}` whether or not the account exists.
  @Sendable static func recover(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    try requireEmailProvider(context, status: 400)
    let body = try context.body().decode(GoTrueRecoverBody.self)
    guard let email = body.email, !email.isEmpty else {
      throw .api(.invalid("Password recovery requires an email"))
    }
    let pkce = try pkceChallenge(body.codeChallenge, body.codeChallengeMethod)
    try await context.engine.recover(email: email, redirectTo: context.redirectTo, pkce: pkce)
    return Answer.empty
  }

  /// GoTrue's answer to an email request with the email provider off.
  static func requireEmailProvider(_ context: RouteContext, status: Int) throws(GoTrueFailure) {
    guard context.engine.configuration.emailProvider else {
      throw .api(
        GoTrueAPIError(
          status: status, code: .emailProviderDisabled, message: "Email logins are disabled"))
    }
  }

  /// `POST /otp`: a sign-in code by email, or by SMS with the phone provider on.
  @Sendable static func otp(_ context: RouteContext) async throws(GoTrueFailure) -> HTTPResponse {
    let body = try context.body().decode(GoTrueOTPBody.self)
    let email = body.email ?? ""
    let phone = body.phone ?? ""
    if !email.isEmpty, !phone.isEmpty {
      throw .api(.invalid("Only an email address or phone number should be provided"))
    }
    if !email.isEmpty, !(body.channel ?? "").isEmpty {
      throw .api(.invalid("Channel should only be specified with Phone OTP"))
    }
    let pkce = try pkceChallenge(body.codeChallenge, body.codeChallengeMethod)
    if !phone.isEmpty {
      guard context.engine.configuration.phoneProvider else {
        throw .api(
          GoTrueAPIError(
            status: 400, code: .phoneProviderDisabled, message: "Unsupported phone provider"))
      }
      try PhoneNumber.validate(phone)
      let messageID = try await context.engine.sendSignInCode(
        phone: phone, createUser: body.createUser ?? true, data: body.data ?? [:],
        channel: body.channel)
      return Answer.sent(messageID)
    }
    guard !email.isEmpty else { throw .api(.invalid("One of email or phone must be set")) }
    try requireEmailProvider(context, status: 422)
    try await context.engine.sendSignInCode(
      email: email, createUser: body.createUser ?? true, data: body.data ?? [:],
      redirectTo: context.redirectTo, pkce: pkce)
    return Answer.empty
  }

  /// `POST /magiclink`: the older route to a sign-in link.
  @Sendable static func magicLink(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    try requireEmailProvider(context, status: 422)
    let body = try context.body().decode(GoTrueOTPBody.self)
    guard let email = body.email, !email.isEmpty else {
      throw .api(.invalid("Password recovery requires an email", status: 422))
    }
    let pkce = try pkceChallenge(body.codeChallenge, body.codeChallengeMethod)
    try await context.engine.sendSignInCode(
      email: email, createUser: true, data: body.data ?? [:], redirectTo: context.redirectTo,
      pkce: pkce)
    return Answer.empty
  }

  /// `POST /resend`: `signup` and `email_change` by email, `sms` and `phone_change` by SMS.
  @Sendable static func resend(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    let body = try context.body().decode(GoTrueResendBody.self)
    let type = body.type ?? ""
    let email = body.email ?? ""
    let phone = body.phone ?? ""
    let emailTypes = ["signup", "email_change"]
    let phoneTypes = ["sms", "phone_change"]
    guard emailTypes.contains(type) || phoneTypes.contains(type) else {
      throw .api(.invalid("Missing one of these types: signup, email_change, sms, phone_change"))
    }
    let pkce =
      emailTypes.contains(type)
      ? try pkceChallenge(body.codeChallenge, body.codeChallengeMethod) : nil
    if type == "signup", email.isEmpty {
      throw .api(.invalid("Type provided requires an email address"))
    }
    if type == "sms", phone.isEmpty {
      throw .api(.invalid("Type provided requires a phone number"))
    }
    if !email.isEmpty, !phone.isEmpty {
      throw .api(.invalid("Only an email address or phone number should be provided."))
    }
    if !email.isEmpty {
      try requireEmailProvider(context, status: 400)
    } else if !phone.isEmpty {
      guard context.engine.configuration.phoneProvider else {
        throw .api(
          GoTrueAPIError(
            status: 400, code: .phoneProviderDisabled, message: "Phone logins are disabled"))
      }
      try PhoneNumber.validate(phone)
      // A phone with an email type finds no one to resend to.
      guard let phoneType = PhoneVerification(rawValue: type) else { return Answer.empty }
      return Answer.sent(try await context.engine.resendText(phoneType, phone: phone))
    } else {
      throw .api(.invalid("Missing email address or phone number"))
    }
    // An email with a phone type, or a phone with an email type, finds no one to resend to.
    guard emailTypes.contains(type) else { return Answer.empty }
    try await context.engine.resend(
      type: type == "signup" ? .signup : .emailChange, email: email, redirectTo: context.redirectTo,
      pkce: pkce)
    return Answer.empty
  }

  /// `POST /verify`: a code with its email, or a link's token hash.
  @Sendable static func verify(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    let body = try context.body().decode(GoTrueVerifyBody.self)
    guard let typeText = body.type, !typeText.isEmpty else {
      throw .api(.invalid("Verify requires a verification type"))
    }
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
      guard let type = try verificationType(typeText) else { throw invalidLink }
      outcome = try await context.engine.verifyLink(type: type, tokenHash: tokenHash)
    } else if !phone.isEmpty, email.isEmpty {
      // GoTrue checks a phone number's form before anything else, with phones on or off.
      try PhoneNumber.validate(phone)
      _ = try verificationType(typeText)
      // With phones off no code was texted, so none can match; nor can an email's type.
      guard context.engine.configuration.phoneProvider,
        let type = PhoneVerification(rawValue: typeText)
      else { throw invalidCode }
      outcome = .session(try await context.engine.verifyPhone(type, phone: phone, code: token))
    } else if phone.isEmpty, !email.isEmpty {
      guard EmailFormat.isPlausible(email) else {
        throw .api(.invalid("Invalid email format", status: 422))
      }
      guard let type = try verificationType(typeText) else { throw invalidCode }
      outcome = try await context.engine.verifyCode(type: type, email: email, code: token)
    } else {
      throw .api(.invalid("Only an email address or phone number should be provided on verify"))
    }
    switch outcome {
    case .session(let session):
      return Answer.json(session)
    case .emailChangePending(let message):
      return Answer.json(JSONValue.object(["code": .string("200"), "msg": .string(message)]))
    case .authorizationCode:
      // `POST /verify` never asks for a code (only a link followed does).
      throw invalidLink
    }
  }

  /// `GET /verify?token=…&type=…&redirect_to=…`, the link in an email: verifies, then sends
  /// the browser on as GoTrue does: with the session in the fragment (the implicit flow), or
  /// with `?code=` for a PKCE link (`pkce_…`), which the app exchanges with its verifier;
  /// an error goes in the fragment, and for a PKCE link in the query too.
  @Sendable static func verifyLink(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    let request = context.request
    guard let typeText = request.queryValue("type"), !typeText.isEmpty else {
      throw .api(.invalid("Verify requires a verification type"))
    }
    guard let token = request.queryValue("token"), !token.isEmpty else {
      throw .api(.invalid("Verify requires a token or a token hash"))
    }
    let type = try verificationType(typeText)
    let isPKCE = token.hasPrefix(EmbeddedGoTrue.pkcePrefix)
    let target = context.engine.allowedRedirect(context.redirectTo)
    do throws(GoTrueFailure) {
      guard let type else { throw invalidLink }
      switch try await context.engine.verifyLink(type: type, tokenHash: token, inBrowser: true) {
      case .session(let session):
        return Answer.seeOther(
          RedirectURL.withFragment(
            target,
            [
              ("access_token", session.accessToken), ("expires_at", "\(session.expiresAt ?? 0)"),
              ("expires_in", "\(session.expiresIn)"), ("refresh_token", session.refreshToken),
              ("sb", ""), ("token_type", session.tokenType), ("type", typeText),
            ]))
      case .authorizationCode(let code):
        return Answer.seeOther(RedirectURL.settingQuery(target, [("code", code)]))
      case .emailChangePending(let message):
        let query: [(String, String)] = isPKCE ? [("message", message)] : []
        return Answer.seeOther(
          RedirectURL.withFragment(
            RedirectURL.settingQuery(target, query), [("message", message), ("sb", "")]))
      }
    } catch {
      guard case .api(var apiError) = error else { throw error }
      if [.otpInvalid, .otpAlreadyUsed].contains(apiError.code) { apiError.code = .otpExpired }
      var pairs = [
        ("error_code", apiError.code?.rawValue ?? "unexpected_failure"),
        ("error_description", apiError.message),
      ]
      if let oauthError = oauthErrors[apiError.status] { pairs.append(("error", oauthError)) }
      let withQuery = isPKCE ? RedirectURL.settingQuery(target, pairs) : target
      return Answer.seeOther(RedirectURL.withFragment(withQuery, pairs + [("sb", "")]))
    }
  }

  /// The `error` GoTrue adds to a redirect for these statuses (OAuth's names).
  private static let oauthErrors = [
    400: "invalid_request", 401: "unauthorized_client", 403: "access_denied",
    500: "server_error", 503: "temporarily_unavailable",
  ]

  /// The verification type named `text`, `nil` for GoTrue's phone types, or 400.
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
