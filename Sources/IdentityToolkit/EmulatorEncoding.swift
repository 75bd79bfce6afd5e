/// The wire shapes as a server writes them, members in the Auth emulator's order and absent
/// values left out (`JSON.stringify` drops `undefined`).
public protocol EmulatorEncodable {
  /// The value as the emulator writes it.
  var emulatorJSON: EmulatorJSON { get }
}

extension IdentityToolkitErrorCode {
  /// Signups are off: only an admin may create accounts.
  public static let adminOnlyOperation: Self = "ADMIN_ONLY_OPERATION"
  /// The password breaks a rule other than the minimum length.
  public static let passwordRequirements: Self = "PASSWORD_DOES_NOT_MEET_REQUIREMENTS"
  /// A batch names no accounts, or too many.
  public static let localIDListExceedsLimit: Self = "LOCAL_ID_LIST_EXCEEDS_LIMIT"
  /// `continueUrl` is not an absolute URL.
  public static let invalidContinueURI: Self = "INVALID_CONTINUE_URI"
}

extension IdentityToolkitSignIn: EmulatorEncodable {
  /// `kind`, `registered`, `localId`, `displayName`, `email`, then the tokens.
  public var emulatorJSON: EmulatorJSON {
    .members([
      "kind": .maybe(kind), "registered": .maybe(registered), "localId": .string(localId),
      "displayName": .maybe(displayName), "email": .maybe(email), "idToken": .string(idToken),
      "refreshToken": .string(refreshToken), "expiresIn": .string(expiresIn),
    ])
  }
}

extension SecureTokenResponse: EmulatorEncodable {
  /// Secure Token's snake-case members, `expires_in` a string.
  public var emulatorJSON: EmulatorJSON {
    .members([
      "id_token": .string(idToken), "access_token": .string(accessToken),
      "expires_in": .string(expiresIn), "refresh_token": .string(refreshToken),
      "token_type": .string(tokenType), "user_id": .string(userId),
      "project_id": .string(projectId),
    ])
  }
}

extension IdentityToolkitProviderInfo: EmulatorEncodable {
  /// `providerId`, `email`, `federatedId`, `rawId`, `displayName`, `photoUrl`, as the
  /// emulator makes the `password` entry; `providerId`, `phoneNumber`, `rawId` for `phone`.
  public var emulatorJSON: EmulatorJSON {
    .members([
      "providerId": .string(providerId), "phoneNumber": .maybe(phoneNumber),
      "email": .maybe(email),
      "federatedId": .maybe(federatedId), "rawId": .maybe(rawId),
      "displayName": .maybe(displayName), "photoUrl": .maybe(photoUrl),
    ])
  }
}

extension IdentityToolkitUser: EmulatorEncodable {
  /// The user record: times as the emulator keeps them (milliseconds and `validSince` as
  /// strings, `passwordUpdatedAt` a number); `providerUserInfo` left out when empty, as for an
  /// anonymous user.
  public var emulatorJSON: EmulatorJSON {
    .members([
      "localId": .string(localId), "email": .maybe(email),
      "emailVerified": .maybe(emailVerified), "emailLinkSignin": .maybe(emailLinkSignin),
      "displayName": .maybe(displayName),
      "photoUrl": .maybe(photoUrl), "phoneNumber": .maybe(phoneNumber),
      "passwordHash": .maybe(passwordHash), "salt": .maybe(salt),
      "passwordUpdatedAt": passwordUpdatedAt.map { .int(Int64($0)) },
      "validSince": .maybe(validSince), "disabled": .maybe(disabled),
      "createdAt": .maybe(createdAt), "lastLoginAt": .maybe(lastLoginAt),
      "lastRefreshAt": .maybe(lastRefreshAt), "customAttributes": .maybe(customAttributes),
      "initialEmail": .maybe(initialEmail), "customAuth": .maybe(customAuth),
      "providerUserInfo": providerUserInfo.flatMap {
        $0.isEmpty ? nil : .array($0.map(\.emulatorJSON))
      },
      "mfaInfo": mfaInfo.flatMap { $0.isEmpty ? nil : .array($0.map(\.emulatorJSON)) },
    ])
  }
}

extension IdentityToolkitMFAEnrollment: EmulatorEncodable {
  /// `mfaEnrollmentId`, `displayName`, `enrolledAt`, then `totpInfo` (`{}`).
  public var emulatorJSON: EmulatorJSON {
    .members([
      "mfaEnrollmentId": .string(mfaEnrollmentId), "displayName": .maybe(displayName),
      "enrolledAt": .maybe(enrolledAt), "totpInfo": totpInfo.map { _ in .members([:]) },
    ])
  }
}

extension IdentityToolkitMFAPending: EmulatorEncodable {
  /// The sign-in's `kind`, `registered`, `localId` and `email`, then `mfaPendingCredential`
  /// and `mfaInfo`, as the emulator spreads them over the sign-in's answer.
  public var emulatorJSON: EmulatorJSON {
    .members([
      "kind": .maybe(kind), "registered": .maybe(registered), "localId": .string(localId),
      "email": .maybe(email), "isNewUser": .maybe(isNewUser),
      "mfaPendingCredential": .string(mfaPendingCredential),
      "mfaInfo": .array(mfaInfo.map(\.emulatorJSON)),
    ])
  }
}

extension IdentityToolkitMFAFinalized: EmulatorEncodable {
  /// `idToken`, `refreshToken`.
  public var emulatorJSON: EmulatorJSON {
    .members(["idToken": .string(idToken), "refreshToken": .string(refreshToken)])
  }
}

extension IdentityToolkitLookup: EmulatorEncodable {
  /// `kind`, then `users` only when some were found (the Admin SDKs rely on that).
  public var emulatorJSON: EmulatorJSON {
    .members([
      "kind": .maybe(kind),
      "users": users.flatMap { $0.isEmpty ? nil : .array($0.map(\.emulatorJSON)) },
    ])
  }
}

extension IdentityToolkitOobCode: EmulatorEncodable {
  /// `kind`, `email`, and for an admin who asked, `oobCode` and `oobLink`.
  public var emulatorJSON: EmulatorJSON {
    .members([
      "kind": .maybe(kind), "email": .maybe(email), "oobCode": .maybe(oobCode),
      "oobLink": .maybe(oobLink),
    ])
  }
}

extension IdentityToolkitResetPassword: EmulatorEncodable {
  /// `kind`, `requestType`, `email`, `newEmail`.
  public var emulatorJSON: EmulatorJSON {
    .members([
      "kind": .maybe(kind), "requestType": .maybe(requestType), "email": .maybe(email),
      "newEmail": .maybe(newEmail),
    ])
  }
}

extension IdentityToolkitSetAccountInfo: EmulatorEncodable {
  /// `kind`, `localId`, `emailVerified`, `providerUserInfo`, `email`, `displayName`,
  /// `photoUrl`, `newEmail`, the redacted `passwordHash`, then new tokens when the change
  /// revoked the old ones.
  public var emulatorJSON: EmulatorJSON {
    .members([
      "kind": .maybe(kind), "localId": .maybe(localId), "emailVerified": .maybe(emailVerified),
      "providerUserInfo": providerUserInfo.map { .array($0.map(\.emulatorJSON)) },
      "email": .maybe(email), "displayName": .maybe(displayName), "photoUrl": .maybe(photoUrl),
      "newEmail": .maybe(newEmail), "passwordHash": .maybe(passwordHash),
      "idToken": .maybe(idToken),
      "refreshToken": .maybe(refreshToken), "expiresIn": .maybe(expiresIn),
    ])
  }
}

extension EmulatorOobCode: EmulatorEncodable {
  /// `email`, `newEmail`, `requestType`, `oobCode`, `oobLink`, in the order the emulator
  /// makes its records.
  public var emulatorJSON: EmulatorJSON {
    .members([
      "email": .string(email), "newEmail": .maybe(newEmail), "requestType": .string(requestType),
      "oobCode": .string(oobCode), "oobLink": .string(oobLink),
    ])
  }
}

extension EmulatorOobCodes: EmulatorEncodable {
  /// `{"oobCodes":[…]}`, oldest first.
  public var emulatorJSON: EmulatorJSON {
    .members(["oobCodes": .array(oobCodes.map(\.emulatorJSON))])
  }
}

/// What `accounts:batchGet` answers: a page of users sorted by id, and the token of the next
/// page when this one is full.
public struct IdentityToolkitDownloadAccount: Codable, Equatable, Hashable, Sendable,
  EmulatorEncodable
{
  /// `identitytoolkit#DownloadAccountResponse`.
  public var kind: String?
  /// The users of the page.
  public var users: [IdentityToolkitUser]?
  /// The id to start the next page after; absent on the last page.
  public var nextPageToken: String?

  /// A page of `users`.
  public init(
    kind: String? = "identitytoolkit#DownloadAccountResponse", users: [IdentityToolkitUser]?,
    nextPageToken: String?
  ) {
    self.kind = kind
    self.users = users
    self.nextPageToken = nextPageToken
  }

  /// `kind`, `users`, `nextPageToken`.
  public var emulatorJSON: EmulatorJSON {
    .members([
      "kind": .maybe(kind), "users": users.map { .array($0.map(\.emulatorJSON)) },
      "nextPageToken": .maybe(nextPageToken),
    ])
  }
}

/// The link in an emailed code, to the emulator's own page: `<base>/emulator/action?mode=…
/// &lang=en&oobCode=…&apiKey=fake-api-key[&continueUrl=…]`, query escaped as `URLSearchParams`
/// escapes it.
public enum EmulatorActionLink {
  /// The link for `code` opened in `mode` (`verifyEmail`, `signIn`, …), on the server at
  /// `base` (`http://127.0.0.1:9099`).
  public static func url(base: String, mode: String, oobCode: String, continueURL: String? = nil)
    -> String
  {
    var pairs = [
      ("mode", mode), ("lang", "en"), ("oobCode", oobCode), ("apiKey", "fake-api-key"),
    ]
    if let continueURL { pairs.append(("continueUrl", continueURL)) }
    let query = pairs.map { "\(formEscaped($0.0))=\(formEscaped($0.1))" }.joined(separator: "&")
    let trimmed = base.hasSuffix("/") ? String(base.dropLast()) : base
    return "\(trimmed)/emulator/action?\(query)"
  }

  /// `text` as `application/x-www-form-urlencoded` writes it: letters, digits and `*-._`
  /// as they are, space as `+`, every other byte `%XX`.
  public static func formEscaped(_ text: String) -> String {
    var escaped = ""
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "*"), UInt8(ascii: "-"),
        UInt8(ascii: "."), UInt8(ascii: "_"):
        escaped.unicodeScalars.append(UnicodeScalar(byte))
      case UInt8(ascii: " "): escaped += "+"
      default:
        let hex = Array("0123456789ABCDEF")
        escaped += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0xF)])
      }
    }
    return escaped
  }
}
