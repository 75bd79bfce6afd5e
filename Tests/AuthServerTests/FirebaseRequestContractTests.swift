import HTTPServer
import IdentityToolkit
import Testing

@testable import AuthServer

/// Every operation of the table has its request type (``IdentityToolkitOperation/request``) or
/// is one a server reads nothing of, and every request type, every member set, reads back on the
/// server as the value the client encoded: as JSON, and as a form or a query where the
/// operation takes one.
struct FirebaseRequestContractTests {
  /// One value of each request type, every member set.
  static let samples: [any IdentityToolkitBody] = [
    IdentityToolkitRequest.SignUp(
      localId: "u1", idToken: "t", email: "ada@example.com", password: "Secret123",
      displayName: "Ada", photoUrl: "https://example.com/a.png", emailVerified: true,
      disabled: false, phoneNumber: "+15555550100", returnSecureToken: true),
    IdentityToolkitRequest.SignInWithPassword(
      email: "ada@example.com", password: "Secret123", returnSecureToken: true),
    IdentityToolkitRequest.SendOobCode(
      requestType: "VERIFY_AND_CHANGE_EMAIL", email: "ada@example.com",
      newEmail: "lovelace@example.com", idToken: "t", continueUrl: "https://example.com/done",
      returnOobLink: true),
    IdentityToolkitRequest.ResetPassword(oobCode: "code", newPassword: "Another123"),
    IdentityToolkitRequest.Update(
      idToken: "t", localId: "u1", oobCode: "code", email: "ada@example.com",
      password: "Secret123", displayName: "Ada", photoUrl: "https://example.com/a.png",
      validSince: 1_735_689_600, disableUser: true, deleteProvider: ["password", "phone"],
      emailVerified: true, customAttributes: #"{"admin":true}"#, createdAt: 1_735_689_600_000,
      lastLoginAt: 1_735_689_601_000, phoneNumber: "+15555550100", returnSecureToken: true),
    IdentityToolkitRequest.Lookup(
      idToken: "t", localId: ["u1", "u2"], email: ["ada@example.com"],
      phoneNumber: ["+15555550100"]),
    IdentityToolkitRequest.Delete(idToken: "t", localId: "u1"),
    IdentityToolkitRequest.SignInWithEmailLink(
      email: "ada@example.com", oobCode: "code", idToken: "t"),
    IdentityToolkitRequest.SignInWithCustomToken(token: "a.b.", returnSecureToken: true),
    IdentityToolkitRequest.CreateAuthUri(
      identifier: "ada@example.com", continueUri: "http://localhost/", sessionId: "s",
      providerId: "google.com"),
    IdentityToolkitRequest.FinalizeSecondFactor(
      mfaPendingCredential: "pending", mfaEnrollmentId: "f1",
      totpVerificationInfo: .init(verificationCode: "123456")),
    IdentityToolkitRequest.Token(grantType: "refresh_token", refreshToken: "r+/="),
    IdentityToolkitRequest.BatchGet(maxResults: "2", nextPageToken: "u1"),
    IdentityToolkitRequest.DownloadAccount(
      targetProjectId: "demo-app", maxResults: "2", nextPageToken: "u1"),
    IdentityToolkitRequest.BatchDelete(localIds: ["u1", "u2"], force: true),
    IdentityToolkitRequest.CreateSessionCookie(idToken: "t", validDuration: 3600),
    IdentityToolkitRequest.BatchCreate(
      users: [
        .init(
          localId: "u1", email: "ada@example.com", emailVerified: true, displayName: "Ada",
          photoUrl: "https://example.com/a.png", passwordHash: "AAEC", salt: "AwQ",
          rawPassword: "Secret123", disabled: false, customAttributes: #"{"admin":true}"#,
          createdAt: 1_735_689_600_000, lastLoginAt: 1_735_689_601_000,
          phoneNumber: "+15555550100",
          providerUserInfo: [
            .init(
              providerId: "google.com", rawId: "g1", federatedId: "https://accounts.google.com/g1",
              email: "ada@gmail.com", displayName: "Ada L", photoUrl: "https://example.com/g.png")
          ],
          mfaInfo: [
            .init(
              mfaEnrollmentId: "f1", phoneInfo: "+15555550101", displayName: "phone",
              enrolledAt: "2025-01-01T00:00:00.000Z")
          ], tenantId: "t1"),
        .init(localId: "u2"),
      ], hashAlgorithm: "SCRYPT", signerKey: "c2lnbmVy", saltSeparator: "Bw", rounds: 8,
      memoryCost: 14, cpuMemCost: 1024, parallelization: 1, blockSize: 8, dkLen: 64,
      passwordHashOrder: "PASSWORD_AND_SALT", sanityCheck: true, allowOverwrite: true,
      targetProjectId: "demo-app"),
    IdentityToolkitRequest.Query(
      returnUserInfo: true, limit: "10", offset: "0", order: "DESC", sortBy: "USER_ID"),
    IdentityToolkitRequest.SendVerificationCode(
      phoneNumber: "+15555550100", recaptchaToken: "fake"),
    IdentityToolkitRequest.SignInWithPhoneNumber(
      sessionInfo: "s", code: "123456", idToken: "t", phoneNumber: "+15555550100",
      temporaryProof: "p"),
  ]

  /// The operations a server reads nothing of into a type: the `GET`s without parameters, the
  /// emulator's own routes, the configuration (a document the emulator copies path by path,
  /// whatever the paths), and what it refuses unread. Any other operation has a request type.
  static let unread: Set<IdentityToolkitOperation> = [
    .projects, .recaptchaParams, .config, .updateConfig, .startSecondFactor, .signInWithIdp,
    .startEnrollment, .finishEnrollment, .withdrawEnrollment, .deleteAllAccounts, .oobCodes,
    .verificationCodes, .emulatorConfig,
    .updateEmulatorConfig, .action,
  ]

  @Test func everyOperationButTheUnreadHasARequestTypeAndEveryTypeASample() {
    let typed = IdentityToolkitOperation.all.filter { $0.request != nil }
    #expect(Set(IdentityToolkitOperation.all).subtracting(typed) == Self.unread)
    let types = Set(typed.compactMap { $0.request.map { "\($0)" } })
    let sampled = Self.samples.map { "\(type(of: $0))" }
    #expect(Set(sampled) == types)
    #expect(sampled.count == types.count, "a type sampled twice")
  }

  @Test func everyRequestTypeReadsBackOnTheServer() throws {
    for sample in Self.samples {
      try expectReadsBack(sample)
    }
  }

  /// `value`, every member set, reads back from its JSON, and from its pairs where its
  /// operations take a form or a query.
  private func expectReadsBack<T: IdentityToolkitBody>(_ value: T) throws {
    let unset = Self.unsetMembers(of: value)
    #expect(unset.isEmpty, "\(T.self) sampled without \(unset)")
    let json = try #require(EmulatorJSONEncoder.encode(value), "\(T.self)")
    let body = try FirebaseBody(json.compactBytes)
    #expect(try FirebaseFieldDecoder.decode(T.self, from: body) == value, "\(T.self) as JSON")
    let form = T.self == IdentityToolkitRequest.Token.self
    if form || T.self == IdentityToolkitRequest.BatchGet.self {
      let pairs = try #require(EmulatorJSONEncoder.pairs(value), "\(T.self) as pairs")
      let read = form ? FirebaseBody(form: pairs) : FirebaseBody(query: pairs)
      #expect(try FirebaseFieldDecoder.decode(T.self, from: read) == value, "\(T.self) as pairs")
    }
  }

  /// The members of `value` (and of the objects it holds) that are `nil`.
  static func unsetMembers(of value: Any) -> [String] {
    Mirror(reflecting: value).children.flatMap { child -> [String] in
      let name = child.label ?? "?"
      let member = Mirror(reflecting: child.value)
      guard member.displayStyle == .optional else { return [] }
      guard let wrapped = member.children.first?.value else { return [name] }
      return Mirror(reflecting: wrapped).displayStyle == .struct
        ? unsetMembers(of: wrapped).map { name + "." + $0 } : []
    }
  }

  @Test func theNewTypesAreReadWithTheEmulatorsLeniency() throws {
    let delete = try FirebaseBody(Array(#"{"local_ids":"u1","force":true,"other":[1]}"#.utf8))
    #expect(
      try FirebaseFieldDecoder.decode(IdentityToolkitRequest.BatchDelete.self, from: delete)
        == IdentityToolkitRequest.BatchDelete(localIds: ["u1"], force: true))
    let finish = try FirebaseBody(
      Array(
        #"{"mfa_pending_credential":"p","totp_verification_info":{"verification_code":123456}}"#
          .utf8))
    #expect(
      try FirebaseFieldDecoder.decode(
        IdentityToolkitRequest.FinalizeSecondFactor.self, from: finish)
        == IdentityToolkitRequest.FinalizeSecondFactor(
          mfaPendingCredential: "p", totpVerificationInfo: .init(verificationCode: "123456")))
    let nested = try FirebaseBody(
      Array(#"{"totpVerificationInfo":{"verificationCode":true}}"#.utf8))
    #expect(
      throws: IdentityToolkitError.invalidPayload(
        "/totpVerificationInfo/verificationCode should be string")
    ) {
      try FirebaseFieldDecoder.decode(
        IdentityToolkitRequest.FinalizeSecondFactor.self, from: nested)
    }
    let notObject = try FirebaseBody(Array(#"{"totpVerificationInfo":"123456"}"#.utf8))
    #expect(throws: IdentityToolkitError.invalidPayload("/totpVerificationInfo should be object")) {
      try FirebaseFieldDecoder.decode(
        IdentityToolkitRequest.FinalizeSecondFactor.self, from: notObject)
    }
    // Secure Token's snake-case names, in a form or in JSON in either case; the refresh token's
    // kind is checked before the grant's.
    let form = FirebaseBody(form: [("grant_type", "refresh_token"), ("refresh_token", "r")])
    let grant = IdentityToolkitRequest.Token(grantType: "refresh_token", refreshToken: "r")
    #expect(try FirebaseFieldDecoder.decode(IdentityToolkitRequest.Token.self, from: form) == grant)
    let camel = try FirebaseBody(Array(#"{"grantType":"refresh_token","refreshToken":"r"}"#.utf8))
    #expect(
      try FirebaseFieldDecoder.decode(IdentityToolkitRequest.Token.self, from: camel) == grant)
    let both = try FirebaseBody(Array(#"{"grant_type":false,"refresh_token":false}"#.utf8))
    #expect(throws: IdentityToolkitError.invalidPayload("/refreshToken should be string")) {
      try FirebaseFieldDecoder.decode(IdentityToolkitRequest.Token.self, from: both)
    }
    // A query's names are taken as they are.
    let query = FirebaseBody(query: [("max_results", "5"), ("maxResults", "7")])
    #expect(
      try FirebaseFieldDecoder.decode(IdentityToolkitRequest.BatchGet.self, from: query)
        == IdentityToolkitRequest.BatchGet(maxResults: "7"))
  }
}
