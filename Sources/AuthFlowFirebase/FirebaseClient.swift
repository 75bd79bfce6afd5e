import HTTPClient
import IdentityToolkit

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Firebase Authentication's REST APIs (Identity Toolkit v1 and Secure Token) as the Firebase
/// SDKs call them for email and password, over an injected transport.
public final class FirebaseClient: Sendable {
  /// The project.
  public let project: FirebaseProject
  private let transport: any HTTPTransport
  private let clientVersion: String

  /// A client of `project` sending through `transport`.
  public init(
    project: FirebaseProject, transport: any HTTPTransport,
    clientVersion: String = ProgramVersion.clientIdentity
  ) {
    self.project = project
    self.transport = transport
    self.clientVersion = clientVersion
  }

  /// `accounts:signUp`: creates an email and password account and signs it in.
  public func signUp(email: String, password: String) async throws(FirebaseFailure)
    -> IdentityToolkitSignIn
  {
    try await call(
      .signUp,
      IdentityToolkitRequest.SignUp(email: email, password: password, returnSecureToken: true))
  }

  /// `accounts:signInWithPassword`; ``FirebaseFailure/secondFactorRequired`` when the account
  /// has a second factor and the answer is its pending credential instead of tokens.
  public func signIn(email: String, password: String) async throws(FirebaseFailure)
    -> IdentityToolkitSignIn
  {
    let operation = IdentityToolkitOperation.signInWithPassword
    let response = try await exchange(
      request(
        operation,
        IdentityToolkitRequest.SignInWithPassword(
          email: email, password: password, returnSecureToken: true)))
    if (try? JSONDecoder().decode(IdentityToolkitMFAPending.self, from: response.body)) != nil {
      throw .secondFactorRequired
    }
    return try decode(response, operation)
  }

  /// `accounts:sendOobCode` with `VERIFY_EMAIL`: emails the signed-in user a verification link.
  public func sendEmailVerification(idToken: String) async throws(FirebaseFailure)
    -> IdentityToolkitOobCode
  {
    try await call(
      .sendOobCode,
      IdentityToolkitRequest.SendOobCode(requestType: "VERIFY_EMAIL", idToken: idToken))
  }

  /// `accounts:sendOobCode` with `PASSWORD_RESET`: emails `email` a reset link.
  public func sendPasswordReset(email: String) async throws(FirebaseFailure)
    -> IdentityToolkitOobCode
  {
    try await call(
      .sendOobCode, IdentityToolkitRequest.SendOobCode(requestType: "PASSWORD_RESET", email: email))
  }

  /// `accounts:resetPassword` with the code alone: what it is for and whose it is, without
  /// spending it (`verifyPasswordResetCode`).
  public func checkActionCode(_ oobCode: String) async throws(FirebaseFailure)
    -> IdentityToolkitResetPassword
  {
    try await call(.resetPassword, IdentityToolkitRequest.ResetPassword(oobCode: oobCode))
  }

  /// `accounts:resetPassword` with a new password: spends a reset link's code.
  public func resetPassword(oobCode: String, newPassword: String) async throws(FirebaseFailure)
    -> IdentityToolkitResetPassword
  {
    try await call(
      .resetPassword,
      IdentityToolkitRequest.ResetPassword(oobCode: oobCode, newPassword: newPassword))
  }

  /// `accounts:update` with a display name, as the signed-in user.
  public func updateProfile(idToken: String, displayName: String) async throws(FirebaseFailure)
    -> IdentityToolkitSetAccountInfo
  {
    try await call(
      .update,
      IdentityToolkitRequest.Update(
        idToken: idToken, displayName: displayName, returnSecureToken: true))
  }

  /// `accounts:update` with a new password, as the signed-in user; the answer carries new
  /// tokens, as the change revokes the old ones.
  public func updatePassword(idToken: String, password: String) async throws(FirebaseFailure)
    -> IdentityToolkitSetAccountInfo
  {
    try await call(
      .update,
      IdentityToolkitRequest.Update(idToken: idToken, password: password, returnSecureToken: true))
  }

  /// `accounts:update` with a `verifyEmail` link's code (`applyActionCode`).
  public func applyActionCode(_ oobCode: String) async throws(FirebaseFailure)
    -> IdentityToolkitSetAccountInfo
  {
    try await call(.update, IdentityToolkitRequest.Update(oobCode: oobCode))
  }

  /// `accounts:lookup`: the signed-in user as the server keeps them.
  public func lookup(idToken: String) async throws(FirebaseFailure) -> IdentityToolkitLookup {
    try await call(.lookup, IdentityToolkitRequest.Lookup(idToken: idToken))
  }

  /// `accounts:delete`: deletes the signed-in user's account.
  public func deleteAccount(idToken: String) async throws(FirebaseFailure) {
    _ = try await exchange(request(.delete, IdentityToolkitRequest.Delete(idToken: idToken)))
  }

  /// Secure Token's `token` with `grant_type=refresh_token`: a new ID token, which carries the
  /// account's current `email_verified`.
  public func refresh(refreshToken: String) async throws(FirebaseFailure) -> SecureTokenResponse {
    let grant = IdentityToolkitRequest.Token(grantType: "refresh_token", refreshToken: refreshToken)
    let body = (EmulatorJSONEncoder.pairs(grant) ?? [])
      .map { "\(formEscaped($0.name))=\(formEscaped($0.value))" }.joined(separator: "&")
    let request = HTTPRequest(
      method: IdentityToolkitOperation.token.method,
      url: "\(project.url(of: .token))?key=\(project.apiKey)",
      headers: headers(contentType: "application/x-www-form-urlencoded"),
      body: Data(body.utf8))
    return try decode(try await exchange(request), .token)
  }

  // MARK: Requests

  /// An Identity Toolkit operation with `body`, its members in the order its type declares
  /// them (as the SDKs write them), absent ones left out.
  func request(_ operation: IdentityToolkitOperation, _ body: some Encodable) -> HTTPRequest {
    HTTPRequest(
      method: operation.method, url: "\(project.url(of: operation))?key=\(project.apiKey)",
      headers: headers(contentType: "application/json"),
      body: Data((EmulatorJSONEncoder.encode(body) ?? .object([])).compactBytes))
  }

  private func headers(contentType: String) -> [HTTPRequest.Header] {
    [
      HTTPRequest.Header("Content-Type", contentType),
      HTTPRequest.Header("Accept", "application/json"),
      HTTPRequest.Header("X-Client-Version", clientVersion),
    ]
  }

  private func call<Answer: Decodable>(
    _ operation: IdentityToolkitOperation, _ body: some Encodable
  ) async throws(FirebaseFailure) -> Answer {
    try decode(try await exchange(request(operation, body)), operation)
  }

  private func decode<Answer: Decodable>(
    _ response: HTTPResponse, _ operation: IdentityToolkitOperation
  )
    throws(FirebaseFailure) -> Answer
  {
    do {
      return try JSONDecoder().decode(Answer.self, from: response.body)
    } catch {
      throw .malformedResponse(
        "\(operation.name) answered \(response.status) with a body that is not \(Answer.self)")
    }
  }

  private func exchange(_ request: HTTPRequest) async throws(FirebaseFailure) -> HTTPResponse {
    do {
      return try await transport.exchange(request, timeout: project.timeout)
    } catch {
      switch error {
      case .noAnswer(let reason): throw .transport(reason)
      case .tooLarge(let reason): throw .malformedResponse(reason)
      case .refused(let response):
        throw .api(IdentityToolkitErrorBody.decode(status: response.status, body: response.body))
      }
    }
  }
}

/// `text` as `application/x-www-form-urlencoded` writes it: letters, digits and `*-._` as they
/// are, space as `+`, every other byte `%XX` (a refresh token's `+/=` among them).
func formEscaped(_ text: String) -> String {
  let hex = Array("0123456789ABCDEF".utf8)
  var escaped: [UInt8] = []
  for byte in text.utf8 {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "*"), UInt8(ascii: "-"),
      UInt8(ascii: "."), UInt8(ascii: "_"):
      escaped.append(byte)
    case UInt8(ascii: " "): escaped.append(UInt8(ascii: "+"))
    default: escaped += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
    }
  }
  return String(decoding: escaped, as: UTF8.self)
}
