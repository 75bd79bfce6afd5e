import AuthCrypto
import FirebaseEmulator
import GoTrueEngine
import HTTPServer
import IdentityToolkit

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// How the Firebase surface answers: results compact with `Content-Type: application/json`;
/// errors and the emulator's own pages indented by two spaces with `charset=utf-8`, as
/// Express's `res.json` writes them.
enum FirebaseAnswer {
  /// A result.
  static func json(_ value: EmulatorJSON, status: Int = 200) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: [("Content-Type", "application/json")], body: value.compactBytes)
  }

  /// A page of the emulator's own (`GET /`, `/emulator/action`).
  static func page(_ value: EmulatorJSON, status: Int = 200) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: [("Content-Type", "application/json; charset=utf-8")],
      body: value.prettyBytes)
  }

  /// `error` in Google's shape, byte for byte as the emulator writes it.
  static func error(_ error: IdentityToolkitError) -> HTTPResponse {
    let items = error == .invalidCredentials ? [IdentityToolkitError.invalidCredentialsItem] : nil
    return HTTPResponse(
      status: error.status, headers: [("Content-Type", "application/json; charset=utf-8")],
      body: IdentityToolkitErrorBody.emulatorBytes(error, items: items))
  }

  /// `GET /`: the emulator saying it is there.
  static let ready = page(
    .members([
      "authEmulator": .members([
        "ready": .bool(true), "docs": .string("https://firebase.google.com/docs/emulator-suite"),
        "apiSpec": .string("/emulator/openapi.json"),
      ])
    ]))

  /// `{"kind": kind}`.
  static func kind(_ kind: String) -> HTTPResponse { json(.members(["kind": .string(kind)])) }

  /// A user record as lookups and listings show it: an anonymous user without an email or
  /// providers; `emailLinkSignin` and `customAuth` only when set. The password hash is never
  /// shown: it is `UkVEQUNURUQ=` (base64 of `REDACTED`) as production answers callers who may
  /// not see it.
  static func user(_ account: FirebaseAccount) -> IdentityToolkitUser {
    IdentityToolkitUser(
      localId: account.id, email: account.email.isEmpty ? nil : account.email,
      emailVerified: account.emailVerified, displayName: account.displayName,
      photoUrl: account.photoURL, phoneNumber: account.phoneNumber,
      passwordHash: account.hasPassword ? redactedHash : nil,
      passwordUpdatedAt: account.passwordUpdatedAt.map(Double.init),
      validSince: account.validSince.map { "\($0)" }, disabled: account.disabled,
      createdAt: "\(account.createdAt)", lastLoginAt: account.lastLoginAt.map { "\($0)" },
      lastRefreshAt: account.lastRefreshAt.map(isoTime),
      customAttributes: account.customAttributes, initialEmail: account.initialEmail,
      emailLinkSignin: account.emailLinkSignin ? true : nil,
      customAuth: account.customAuth ? true : nil, providerUserInfo: providers(account),
      mfaInfo: secondFactors(account.secondFactors))
  }

  /// A user record as an export (`batchGet`, `downloadAccount`) shows it to an admin: the
  /// stored hash and its salt, each in base64, as production exports them — bcrypt's text (its
  /// salt the 22 characters after the cost), or an imported Firebase scrypt's hash and salt;
  /// for a hash imported by another algorithm, empty strings, as production answers for those
  /// (never the importer's signer key).
  static func exportedUser(_ account: FirebaseAccount) -> IdentityToolkitUser {
    var user = user(account)
    guard let hash = account.passwordHash else { return user }
    if let imported = ImportedPassword(text: hash) {
      if case .firebaseScrypt = imported.scheme {
        user.passwordHash = Data(imported.hash).base64EncodedString()
        user.salt = Data(imported.salt).base64EncodedString()
      } else {
        user.passwordHash = ""
        user.salt = ""
      }
      return user
    }
    user.passwordHash = Data(hash.utf8).base64EncodedString()
    let parts = hash.split(separator: "$", omittingEmptySubsequences: true)
    if parts.count == 3 { user.salt = Data(parts[2].prefix(22).utf8).base64EncodedString() }
    return user
  }

  /// Second factors as `mfaInfo` lists them; none is no list at all.
  static func secondFactors(_ factors: [FirebaseSecondFactor]) -> [IdentityToolkitMFAEnrollment]? {
    guard !factors.isEmpty else { return nil }
    return factors.map {
      IdentityToolkitMFAEnrollment(
        mfaEnrollmentId: $0.enrollmentID, displayName: $0.displayName,
        enrolledAt: isoTime($0.enrolledAt))
    }
  }

  /// A sign-in that waits for its second factor, as the sign-in of `kind` answers it.
  static func pending(_ pending: FirebaseSecondFactorPending, kind: String, registered: Bool?)
    -> IdentityToolkitMFAPending
  {
    IdentityToolkitMFAPending(
      kind: kind, localId: pending.account.id,
      email: pending.account.email.isEmpty ? nil : pending.account.email, registered: registered,
      mfaPendingCredential: pending.credential,
      mfaInfo: secondFactors(pending.factors) ?? [])
  }

  /// The ways `account` signs in: its entries of other providers (`google.com`, as imported),
  /// then with its email, by password or by link (the emulator's `password` provider), then
  /// with its phone number (`phone`), in the order the emulator adds them to an imported user.
  static func providers(_ account: FirebaseAccount) -> [IdentityToolkitProviderInfo] {
    var providers = account.linkedProviders.map {
      IdentityToolkitProviderInfo(
        providerId: $0.providerID, email: $0.email, federatedId: $0.federatedID,
        rawId: $0.rawID, displayName: $0.displayName, photoUrl: $0.photoURL)
    }
    if account.signsInByEmail {
      providers.append(
        IdentityToolkitProviderInfo(
          providerId: "password", email: account.email, federatedId: account.email,
          rawId: account.email, displayName: account.displayName, photoUrl: account.photoURL))
    }
    if let phone = account.phoneNumber {
      providers.append(
        IdentityToolkitProviderInfo(
          providerId: "phone", phoneNumber: phone, email: nil, federatedId: nil, rawId: phone))
    }
    return providers
  }

  /// What `accounts:update` answers about `account`, with the email asked for and the new
  /// tokens of `session`.
  static func updated(
    _ account: FirebaseAccount, session: FirebaseSession? = nil, newEmail: String? = nil
  ) -> IdentityToolkitSetAccountInfo {
    IdentityToolkitSetAccountInfo(
      localId: account.id, email: account.email.isEmpty ? nil : account.email,
      displayName: account.displayName, emailVerified: account.emailVerified,
      providerUserInfo: providers(account), photoUrl: account.photoURL, newEmail: newEmail,
      idToken: session?.idToken, refreshToken: session?.refreshToken,
      expiresIn: session.map { "\($0.expiresIn)" },
      passwordHash: account.hasPassword ? redactedHash : nil)
  }

  /// Production's stand-in for a hash the caller may not see.
  static let redactedHash = "UkVEQUNURUQ="

  /// Unix milliseconds as JavaScript's `toISOString` writes them: `2025-01-01T00:00:00.000Z`.
  static func isoTime(_ millis: Int64) -> String {
    let date = Date(timeIntervalSince1970: Double(millis / 1_000))
    let whole = date.formatted(.iso8601).dropLast()
    let fraction = String(1_000 + millis % 1_000).dropFirst()
    return "\(whole).\(fraction)Z"
  }
}

/// Cross-origin answers as the emulator gives them (`cors({origin: true})`): any origin, any
/// requested header, no credentials; but a page of another site may send no `Authorization`
/// (`Bearer owner` rides in it), gets no Private Network Access, and no grant at all on the
/// emulator's own routes (``LocalTrust``).
enum FirebaseCORS {
  /// A preflight `OPTIONS`.
  static func preflight(_ request: HTTPRequest, origin kind: CrossOrigin) -> HTTPResponse {
    if kind == .refused { return CORS.refusedPreflight }
    var headers: [(name: String, value: String)] = []
    if let origin = request.header("Origin") {
      headers += [
        ("Access-Control-Allow-Origin", origin), ("Vary", "Origin"),
        ("Access-Control-Allow-Methods", "GET,HEAD,PUT,PATCH,POST,DELETE"),
      ]
      if var asked = request.header("Access-Control-Request-Headers") {
        if kind == .foreign {
          let names = asked.split(separator: ",").map(String.init)
          asked = names.filter { !$0.lowercased().contains("authorization") }
            .joined(separator: ",")
        }
        headers += [
          ("Access-Control-Allow-Headers", asked), ("Vary", "Access-Control-Request-Headers"),
        ]
      }
    }
    if kind == .local, request.header("Access-Control-Request-Private-Network") != nil {
      headers.append(("Access-Control-Allow-Private-Network", "true"))
    }
    return HTTPResponse(status: 204, headers: headers)
  }

  /// `response` with the origin allowed, when the request has one that is granted.
  static func decorate(
    _ response: HTTPResponse, for request: HTTPRequest, origin kind: CrossOrigin
  ) -> HTTPResponse {
    guard kind != .refused, let origin = request.header("Origin") else { return response }
    var response = response
    response.headers += [("Access-Control-Allow-Origin", origin), ("Vary", "Origin")]
    return response
  }
}
