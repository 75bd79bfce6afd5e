import GoTrue
import GoTrueEngine
import HTTPServer

/// GoTrue's routes (`internal/api/api.go`), with its request checks in its order and its
/// answers. The engine does the work; these read requests and write answers.
enum GoTrueRoutes {
  static let all: [Route] =
    [
      .immediate("/health") { health(version: $0.version) },
      .immediate("/settings") { settings($0.engine.configuration) },
    ] + accounts + email + admin + mfa + KeySetRoutes.all + DiscoveryRoutes.all + AuditRoutes.all
    + OAuthServerRoutes.all + SSOProviderRoutes.all + FeaturesOff.routes

  // MARK: Health and settings

  /// `GET /health`.
  static func health(version: String) -> HTTPResponse {
    Answer.json(
      JSONValue.object([
        "version": .string(version), "name": .string("GoTrue"),
        "description": .string("GoTrue is a user registration and authentication API"),
      ]))
  }

  /// `GET /settings`: email, phone and anonymous sign-ins as configured, every other provider
  /// off, as the engine is.
  static func settings(_ configuration: EngineConfiguration) -> HTTPResponse {
    var external: [String: JSONValue] = [:]
    for provider in FeaturesOff.externalProviders { external[provider] = .bool(false) }
    external["email"] = .bool(configuration.emailProvider)
    external["anonymous_users"] = .bool(configuration.anonymousSignIns)
    external["phone"] = .bool(configuration.phoneProvider)
    return Answer.json(
      JSONValue.object([
        "external": .object(external), "disable_signup": .bool(configuration.disableSignup),
        "mailer_autoconfirm": .bool(configuration.autoconfirm),
        "phone_autoconfirm": .bool(configuration.smsAutoconfirm), "sms_provider": .string(""),
        "saml_enabled": .bool(false), "saml_private_key_next_configured": .bool(false),
        "passkeys_enabled": .bool(false),
      ]))
  }

  // MARK: Accounts and sessions

  static let accounts: [Route] = [
    Route(.signUp, signUp), Route(.passwordGrant, token), Route(.logout, logout),
    Route(.user, user), Route(.updateUser, updateUser), Route(.deleteUser, deleteOwnAccount),
    Route(.reauthenticate, reauthenticate),
  ]

  /// `POST /signup`: with neither email nor phone, an anonymous sign-in (when on); else
  /// GoTrue's checks in its order (`api.go`, `signup.go`).
  @Sendable static func signUp(_ context: RouteContext) async throws(GoTrueFailure) -> HTTPResponse
  {
    let body = try context.body().decode(GoTrueSignUpBody.self)
    let email = body.email ?? ""
    let phone = body.phone ?? ""
    let engine = context.engine
    let configuration = engine.configuration
    if email.isEmpty, phone.isEmpty {
      guard configuration.anonymousSignIns else {
        throw .api(
          GoTrueAPIError(
            status: 422, code: .anonymousProviderDisabled,
            message: "Anonymous sign-ins are disabled"))
      }
      try context.limit(.anonymousSignIn)
      return Answer.json(try await engine.signUpAnonymously(data: body.data ?? [:]))
    }
    // GoTrue limits a signup once its body is read, before any of the body's checks.
    try context.limit(.signup)
    if configuration.disableSignup {
      throw .api(
        GoTrueAPIError(
          status: 422, code: .signupDisabled, message: "Signups not allowed for this instance"))
    }
    guard let password = body.password, !password.isEmpty else {
      throw .api(.invalid("Signup requires a valid password"))
    }
    try engine.checkPasswordStrength(password)
    if !email.isEmpty, !phone.isEmpty {
      throw .api(.invalid("Only an email address or phone number should be provided on signup."))
    }
    if !phone.isEmpty, email.isEmpty, !["", "sms"].contains(body.channel ?? "") {
      throw .api(PhoneRules.invalidChannel)
    }
    if !phone.isEmpty, !(body.codeChallenge ?? "").isEmpty {
      throw .api(.invalid("PKCE not supported for phone signups"))
    }
    let pkce = try pkceChallenge(body.codeChallenge, body.codeChallengeMethod)
    if !phone.isEmpty {
      guard configuration.phoneProvider else {
        throw .api(
          GoTrueAPIError(
            status: 400, code: .phoneProviderDisabled, message: "Phone signups are disabled"))
      }
      try PhoneNumber.validate(phone)
      switch try await engine.signUp(phone: phone, password: password, data: body.data ?? [:]) {
      case .session(let session): return Answer.json(session)
      case .user(let user): return Answer.json(user)
      }
    }
    guard configuration.emailProvider else {
      throw .api(
        GoTrueAPIError(
          status: 400, code: .emailProviderDisabled, message: "Email signups are disabled"))
    }
    let answer = try await engine.signUp(
      email: email, password: password, data: body.data ?? [:],
      redirectTo: context.redirectTo, pkce: pkce)
    switch answer {
    case .session(let session): return Answer.json(session)
    case .user(let user): return Answer.json(user)
    }
  }

  /// The PKCE challenge of a request, checked as GoTrue checks it.
  static func pkceChallenge(_ challenge: String?, _ method: String?) throws(GoTrueFailure)
    -> PKCEChallenge?
  {
    do {
      return try PKCEChallenge.of(challenge: challenge, method: method)
    } catch {
      throw .api(error)
    }
  }

  /// `POST /token?grant_type=…`.
  @Sendable static func token(_ context: RouteContext) async throws(GoTrueFailure) -> HTTPResponse {
    // A body that is JSON is read as JSON whatever its declared type (curl -d sends JSON as a
    // form), and a broken one is answered as broken JSON; a real form body is read as a form.
    let bytes = context.request.body
    let isJSON = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "{")
    let form = isJSON ? nil : context.request.formFields
    let grant =
      context.request.queryValue("grant_type") ?? form?.first { $0.name == "grant_type" }?.value
    let grants: [GoTrueEndpoint] = [.passwordGrant, .refreshGrant, .pkceGrant]
    guard let endpoint = grants.first(where: { $0.grant == grant }) else {
      if grant == "web3" {
        // The web3 grant has a limiter of its own (`RATE_LIMIT_WEB3`), spent first.
        try context.limit(.web3)
        return try await web3Grant(context)
      }
      if grant == "id_token" {
        // The id_token grant spends the sign-in budget before its provider is found off.
        try context.limit(.token)
        throw .api(.invalid("Unsupported provider: provider is not enabled"))
      }
      throw .api(
        GoTrueAPIError(status: 400, code: .invalidCredentials, message: "unsupported_grant_type"))
    }
    // Limited once the grant is known, before its body is read (`Token` in api/token.go).
    try context.limit(.token)
    // The body, read once: the form's fields, or the JSON.
    let body: RequestBody
    if let form {
      body = RequestBody(form: form)
    } else {
      body = try context.body()
    }
    switch endpoint {
    case .passwordGrant:
      return try await passwordGrant(context, try body.decode(GoTruePasswordGrantBody.self))
    case .refreshGrant:
      let refresh = try body.decode(GoTrueRefreshGrantBody.self)
      return Answer.json(try await context.engine.refresh(refreshToken: refresh.refreshToken ?? ""))
    default:
      let pkce = try body.decode(GoTruePKCEGrantBody.self)
      return Answer.json(
        try await context.engine.exchangeAuthCode(
          pkce.authCode ?? "", verifier: pkce.codeVerifier ?? ""))
    }
  }

  private static func passwordGrant(_ context: RouteContext, _ body: GoTruePasswordGrantBody)
    async throws(GoTrueFailure) -> HTTPResponse
  {
    let (email, phone, password) = (body.email ?? "", body.phone ?? "", body.password ?? "")
    if !email.isEmpty, !phone.isEmpty {
      throw .api(.invalid("Only an email address or phone number should be provided on login."))
    }
    if !email.isEmpty, !context.engine.configuration.emailProvider {
      throw .api(
        GoTrueAPIError(
          status: 422, code: .emailProviderDisabled, message: "Email logins are disabled"))
    }
    let session: GoTrueSession
    if !phone.isEmpty {
      guard context.engine.configuration.phoneProvider else {
        throw .api(
          GoTrueAPIError(
            status: 422, code: .phoneProviderDisabled, message: "Phone logins are disabled"))
      }
      session = try await context.engine.signIn(phone: phone, password: password)
    } else {
      guard !email.isEmpty else { throw .api(.invalid("missing email or phone")) }
      session = try await context.engine.signIn(email: email, password: password)
    }
    // GoTrue tells a password grant whether the password still meets the rules.
    var weakness = JSONValue.null
    if case .api(let weak)? = Result(catching: { () throws(GoTrueFailure) in
      try context.engine.checkPasswordStrength(password)
    }).failure {
      weakness = .object([
        "message": .string(weak.message),
        "reasons": .array(weak.weakPasswordReasons.map(JSONValue.string)),
      ])
    }
    return Answer.json(PasswordGrantAnswer(session: session, weakPassword: weakness))
  }

  /// `POST /logout?scope=global|local|others`.
  @Sendable static func logout(_ context: RouteContext) async throws(GoTrueFailure) -> HTTPResponse
  {
    let token = context.accessToken
    let scopeText = context.request.queryValue("scope") ?? ""
    guard let scope = scopeText.isEmpty ? .global : GoTrueLogoutScope(rawValue: scopeText) else {
      throw .api(.invalid("Unsupported logout scope \"\(scopeText)\""))
    }
    try await context.engine.logout(accessToken: token, scope: scope)
    return Answer.noContent
  }

  /// `GET /user`.
  @Sendable static func user(_ context: RouteContext) async throws(GoTrueFailure) -> HTTPResponse {
    Answer.json(try await context.engine.user(accessToken: context.accessToken))
  }

  /// `DELETE /user`: authflow's own route, the signed-in user deleting their account.
  @Sendable static func deleteOwnAccount(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    try await context.engine.deleteUser(accessToken: context.accessToken)
    return Answer.noContent
  }

  /// `PUT /user`.
  @Sendable static func updateUser(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    let token = context.accessToken
    if context.isLimited {
      // GoTrue authenticates before it limits: a bad token is told so, not counted.
      _ = try await context.engine.user(accessToken: token)
      try context.limit(.updateUser)
    }
    let attributes = try context.body().decode(GoTrueUserAttributes.self)
    // GoTrue does not check a PUT /user challenge's shape, but writes the flow state with it.
    let pkce = try pkceChallenge(attributes.codeChallenge, attributes.codeChallengeMethod)
    return Answer.json(
      try await context.engine.updateUser(
        attributes, accessToken: token, redirectTo: context.redirectTo, pkce: pkce))
  }

  /// `GET /reauthenticate`: a nonce by email (or SMS) for the signed-in user: `{}`, with
  /// GoTrue's `message_id` for an SMS.
  @Sendable static func reauthenticate(_ context: RouteContext) async throws(GoTrueFailure)
    -> HTTPResponse
  {
    let messageID = try await context.engine.sendNonce(accessToken: context.accessToken)
    return Answer.sent(messageID)
  }
}

/// A password grant's answer: the session with GoTrue's `weak_password` (null when the
/// password meets the rules).
private struct PasswordGrantAnswer: Encodable {
  var session: GoTrueSession
  var weakPassword: JSONValue

  private enum CodingKeys: String, CodingKey {
    case weakPassword = "weak_password"
  }

  func encode(to encoder: any Encoder) throws {
    try session.encode(to: encoder)
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(weakPassword, forKey: .weakPassword)
  }
}

extension Result {
  /// The error, when this is a failure.
  fileprivate var failure: Failure? {
    if case .failure(let error) = self { error } else { nil }
  }
}
