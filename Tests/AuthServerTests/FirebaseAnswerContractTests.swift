import Foundation
import IdentityToolkit
import Testing

/// Every answer type, every member set, written as the server writes it (``EmulatorEncodable``)
/// reads back in a client (`Decodable`) as the same value.
struct FirebaseAnswerContractTests {
  static let user = IdentityToolkitUser(
    localId: "u1", email: "ada@example.com", emailVerified: true, displayName: "Ada",
    photoUrl: "https://example.com/a.png", passwordHash: "UkVEQUNURUQ=",
    passwordUpdatedAt: 1_735_689_600_000, validSince: "1735689600", disabled: false,
    createdAt: "1735689600000", lastLoginAt: "1735689601000",
    lastRefreshAt: "2025-01-01T00:00:01.000Z", customAttributes: #"{"admin":true}"#,
    initialEmail: "first@example.com", emailLinkSignin: true, customAuth: true,
    providerUserInfo: [provider], mfaInfo: [factor])
  static let provider = IdentityToolkitProviderInfo(
    providerId: "password", email: "ada@example.com", federatedId: "ada@example.com",
    rawId: "ada@example.com", displayName: "Ada", photoUrl: "https://example.com/a.png")
  static let factor = IdentityToolkitMFAEnrollment(
    mfaEnrollmentId: "f1", displayName: "phone app", enrolledAt: "2025-01-01T00:00:00.000Z")

  static var pending: IdentityToolkitMFAPending {
    var pending = IdentityToolkitMFAPending(
      kind: "identitytoolkit#EmailLinkSigninResponse", localId: "u1", email: "ada@example.com",
      registered: true, mfaPendingCredential: "pending", mfaInfo: [factor])
    pending.isNewUser = false
    return pending
  }

  /// One value of each answer type.
  static let samples: [any EmulatorEncodable & Decodable & Equatable & Sendable] = [
    IdentityToolkitSignIn(
      kind: "identitytoolkit#VerifyPasswordResponse", localId: "u1", email: "ada@example.com",
      displayName: "Ada", idToken: "id", refreshToken: "refresh", expiresIn: "3600",
      registered: true),
    SecureTokenResponse(
      idToken: "id", accessToken: "id", expiresIn: "3600", refreshToken: "refresh",
      userId: "u1", projectId: "12345"),
    IdentityToolkitLookup(users: [user]), pending,
    IdentityToolkitMFAFinalized(idToken: "id", refreshToken: "refresh"),
    IdentityToolkitOobCode(
      email: "ada@example.com", oobCode: "code", oobLink: "http://127.0.0.1:9099/emulator/action"),
    IdentityToolkitResetPassword(
      email: "ada@example.com", requestType: "VERIFY_AND_CHANGE_EMAIL",
      newEmail: "lovelace@example.com"),
    IdentityToolkitSetAccountInfo(
      localId: "u1", email: "ada@example.com", displayName: "Ada", emailVerified: true,
      providerUserInfo: [provider], photoUrl: "https://example.com/a.png",
      newEmail: "lovelace@example.com", idToken: "id", refreshToken: "refresh",
      expiresIn: "3600", passwordHash: "UkVEQUNURUQ="),
    IdentityToolkitEmailLinkSignIn(
      email: "ada@example.com", localId: "u1", isNewUser: true, idToken: "id",
      refreshToken: "refresh", expiresIn: "3600"),
    IdentityToolkitDownloadAccount(users: [user], nextPageToken: "u1"),
    EmulatorOobCodes(oobCodes: [
      EmulatorOobCode(
        email: "ada@example.com", newEmail: "lovelace@example.com",
        requestType: "VERIFY_AND_CHANGE_EMAIL", oobCode: "code", oobLink: "http://x/")
    ]),
    IdentityToolkitNewAccount(localId: "u1", displayName: "Ada", email: "ada@example.com"),
    IdentityToolkitCreateAuthUri(
      registered: true, allProviders: ["password"], sessionId: "s",
      signinMethods: ["password", "emailLink"]),
    IdentityToolkitCustomTokenSignIn(
      isNewUser: true, idToken: "id", refreshToken: "refresh", expiresIn: "3600"),
    IdentityToolkitBatchDelete(errors: [
      .init(index: 1, localId: "u2", message: "NOT_DISABLED : Disable the account first.")
    ]),
    IdentityToolkitQuery(recordsCount: "1", userInfo: [user]),
    IdentityToolkitSessionCookie(sessionCookie: "a.b.c"),
    IdentityToolkitUploadAccount(error: [.init(index: 1, message: "email is invalid")]),
  ]

  @Test func everyAnswerReadsBackInTheClient() throws {
    for sample in Self.samples {
      try expectReadsBack(sample)
    }
    try expectReadsBack(IdentityToolkitQuery(recordsCount: "0", userInfo: nil), full: false)
    #expect(
      IdentityToolkitBatchDelete(errors: []).emulatorJSON.compactBytes == Array("{}".utf8),
      "a deletion that kept no one answers {}")
  }

  /// `value` (every member set, when `full`) reads back from the bytes the server writes.
  private func expectReadsBack<T: EmulatorEncodable & Decodable & Equatable>(
    _ value: T, full: Bool = true
  ) throws {
    let unset = FirebaseRequestContractTests.unsetMembers(of: value)
    #expect(unset.isEmpty || !full, "\(T.self) sampled without \(unset)")
    let bytes = Data(value.emulatorJSON.compactBytes)
    #expect(try JSONDecoder().decode(T.self, from: bytes) == value, "\(T.self)")
  }
}
