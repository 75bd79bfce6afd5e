import GoTrue
import HTTPClient

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// GoTrue's REST API on a Supabase project, as supabase-swift calls it, over an injected
/// transport.
public final class SupabaseGoTrueClient: GoTrueAPI {
  /// The project.
  public let project: SupabaseProject
  private let transport: any HTTPTransport
  private let clientInfo: String

  /// A client of `project` sending through `transport`.
  public init(
    project: SupabaseProject, transport: any HTTPTransport,
    clientInfo: String = ProgramVersion.clientIdentity
  ) {
    self.project = project
    self.transport = transport
    self.clientInfo = clientInfo
  }

  /// `POST /signup`, with `redirect_to` in the query as supabase-swift sends `emailRedirectTo`.
  public func signUp(
    email: String, password: String, data: [String: JSONValue], redirectTo: String?
  ) async throws(GoTrueFailure) -> GoTrueSignUpResponse {
    try await call(
      .signUp, query: Self.redirect(redirectTo),
      body: GoTrueSignUpBody(email: email, password: password, data: data.isEmpty ? nil : data))
  }

  /// `POST /token?grant_type=password`.
  public func signIn(email: String, password: String) async throws(GoTrueFailure) -> GoTrueSession {
    try await call(.passwordGrant, body: GoTruePasswordGrantBody(email: email, password: password))
  }

  /// `POST /token?grant_type=refresh_token`.
  public func refresh(refreshToken: String) async throws(GoTrueFailure) -> GoTrueSession {
    try await call(.refreshGrant, body: GoTrueRefreshGrantBody(refreshToken: refreshToken))
  }

  /// `POST /recover`, with `redirect_to` in the query as supabase-swift sends `redirectTo`.
  public func recover(email: String, redirectTo: String?) async throws(GoTrueFailure) {
    try await send(
      .recover, query: Self.redirect(redirectTo), body: GoTrueRecoverBody(email: email))
  }

  /// `POST /verify` with the email and its code.
  public func verify(type: GoTrueOTPType, email: String, token: String)
    async throws(GoTrueFailure) -> GoTrueSession
  {
    try await call(
      .verify, body: GoTrueVerifyBody(type: type.rawValue, email: email, token: token))
  }

  /// `POST /verify` with a link's `token_hash`.
  public func verify(type: GoTrueOTPType, tokenHash: String) async throws(GoTrueFailure)
    -> GoTrueSession
  {
    try await call(.verify, body: GoTrueVerifyBody(type: type.rawValue, tokenHash: tokenHash))
  }

  /// `POST /resend`, with `redirect_to` in the query as supabase-swift sends `emailRedirectTo`.
  public func resend(type: GoTrueOTPType, email: String, redirectTo: String?)
    async throws(GoTrueFailure)
  {
    try await send(
      .resend, query: Self.redirect(redirectTo),
      body: GoTrueResendBody(type: type.rawValue, email: email))
  }

  /// The query that asks for an email's link to lead to `url`.
  private static func redirect(_ url: String?) -> String? {
    url.map { "redirect_to=" + FormEncoding.escape($0) }
  }

  /// `PUT /user` with a new password (and the reauthentication nonce, when given), as the
  /// signed-in user.
  public func updatePassword(_ password: String, accessToken: String, nonce: String? = nil)
    async throws(GoTrueFailure) -> GoTrueUser
  {
    try await call(
      .updateUser, body: GoTrueUserAttributes(password: password, nonce: nonce),
      accessToken: accessToken)
  }

  /// `GET /reauthenticate`, as the signed-in user.
  public func reauthenticate(accessToken: String) async throws(GoTrueFailure) {
    try await send(.reauthenticate, accessToken: accessToken)
  }

  /// `POST /logout?scope=`.
  public func logout(accessToken: String, scope: GoTrueLogoutScope) async throws(GoTrueFailure) {
    try await send(
      .logout, query: "scope=\(scope.rawValue)", accessToken: accessToken)
  }

  /// `GET /user`.
  public func user(accessToken: String) async throws(GoTrueFailure) -> GoTrueUser {
    try await call(.user, accessToken: accessToken)
  }

  /// `DELETE /user` (authflow serve's; a Supabase project answers 404 or 405).
  public func deleteUser(accessToken: String) async throws(GoTrueFailure) {
    try await send(.deleteUser, accessToken: accessToken)
  }

  // MARK: Requests

  /// The request for `endpoint`, with supabase-swift's headers: the endpoint's own query (a
  /// grant) or `query`, and `body` encoded as JSON.
  func request(
    _ endpoint: GoTrueEndpoint, query: String? = nil, body: (any Encodable)? = nil,
    accessToken: String? = nil
  ) -> HTTPRequest {
    var headers = [
      HTTPRequest.Header("apikey", project.key),
      HTTPRequest.Header("Authorization", "Bearer \(accessToken ?? project.key)"),
      HTTPRequest.Header("Accept", "application/json"),
    ]
    var data: Data?
    if let body {
      headers.append(HTTPRequest.Header("Content-Type", "application/json"))
      data = try? GoTrueCoding.encoder().encode(body)
    }
    headers.append(HTTPRequest.Header("X-Client-Info", clientInfo))
    headers.append(HTTPRequest.Header("X-Supabase-Api-Version", "2024-01-01"))
    let query = endpoint.query ?? query
    let url = project.authURL + endpoint.path + (query.map { "?" + $0 } ?? "")
    return HTTPRequest(method: endpoint.method, url: url, headers: headers, body: data)
  }

  private func call<Answer: Decodable>(
    _ endpoint: GoTrueEndpoint, query: String? = nil, body: (any Encodable)? = nil,
    accessToken: String? = nil
  ) async throws(GoTrueFailure) -> Answer {
    let response = try await exchange(
      request(endpoint, query: query, body: body, accessToken: accessToken))
    do {
      return try GoTrueCoding.decoder().decode(Answer.self, from: response.body)
    } catch {
      throw .malformedResponse(
        "\(endpoint.method) \(endpoint.path) answered \(response.status) with a body that is not "
          + "\(Answer.self)")
    }
  }

  private func send(
    _ endpoint: GoTrueEndpoint, query: String? = nil, body: (any Encodable)? = nil,
    accessToken: String? = nil
  ) async throws(GoTrueFailure) {
    _ = try await exchange(request(endpoint, query: query, body: body, accessToken: accessToken))
  }

  private func exchange(_ request: HTTPRequest) async throws(GoTrueFailure) -> HTTPResponse {
    do {
      return try await transport.exchange(request, timeout: project.timeout)
    } catch {
      switch error {
      case .noAnswer(let reason): throw .transport(reason)
      case .tooLarge(let reason): throw .malformedResponse(reason)
      case .refused(let response):
        throw .api(
          GoTrueErrorBody.decode(
            status: response.status, headers: response.headers, body: response.body))
      }
    }
  }
}
