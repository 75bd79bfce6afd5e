/// Phone sign-in's wire shapes (`accounts:sendVerificationCode`,
/// `accounts:signInWithPhoneNumber`, the emulator's `verificationCodes`), as firebase-tools'
/// Auth emulator reads and writes them.
extension IdentityToolkitRequest {
  /// `accounts:sendVerificationCode`: a code texted to `phoneNumber`. The emulator ignores
  /// the app's proofs (`recaptchaToken`, `iosReceipt`, `playIntegrityToken`).
  public struct SendVerificationCode: IdentityToolkitBody {
    /// The number, E.164 (`+15555550100`).
    public var phoneNumber: String?
    /// The reCAPTCHA token (the emulator's fake one from `recaptchaParams`).
    public var recaptchaToken: String?

    /// A request with the given members.
    public init(phoneNumber: String? = nil, recaptchaToken: String? = nil) {
      self.phoneNumber = phoneNumber
      self.recaptchaToken = recaptchaToken
    }
  }

  /// `accounts:signInWithPhoneNumber`: the texted code with its `sessionInfo`, or a
  /// `temporaryProof` with its `phoneNumber`; with an `idToken`, the number is linked to that
  /// user.
  public struct SignInWithPhoneNumber: IdentityToolkitBody {
    /// What `sendVerificationCode` answered.
    public var sessionInfo: String?
    /// The texted code.
    public var code: String?
    /// The signed-in user to link the number to.
    public var idToken: String?
    /// The number a `temporaryProof` proves.
    public var phoneNumber: String?
    /// A proof of the number from an earlier answer.
    public var temporaryProof: String?

    /// A request with the given members.
    public init(
      sessionInfo: String? = nil, code: String? = nil, idToken: String? = nil,
      phoneNumber: String? = nil, temporaryProof: String? = nil
    ) {
      self.sessionInfo = sessionInfo
      self.code = code
      self.idToken = idToken
      self.phoneNumber = phoneNumber
      self.temporaryProof = temporaryProof
    }
  }
}

extension IdentityToolkitErrorCode {
  /// Another account has the phone number.
  public static let phoneNumberExists: Self = "PHONE_NUMBER_EXISTS"
  /// `signInWithPhoneNumber` without `sessionInfo`.
  public static let missingSessionInfo: Self = "MISSING_SESSION_INFO"
  /// `signInWithPhoneNumber` without `code`.
  public static let missingCode: Self = "MISSING_CODE"
  /// A `temporaryProof` without its `phoneNumber`.
  public static let missingPhoneNumber: Self = "MISSING_PHONE_NUMBER"
  /// No code waits for this `sessionInfo` (never sent, or used).
  public static let invalidSessionInfo: Self = "INVALID_SESSION_INFO"
  /// The code is not the one texted.
  public static let invalidCode: Self = "INVALID_CODE"
  /// The code's time is over.
  public static let sessionExpired: Self = "SESSION_EXPIRED"
  /// The `temporaryProof` is unknown, used, expired or for another number.
  public static let invalidTemporaryProof: Self = "INVALID_TEMPORARY_PROOF"
  /// A number of a user with a second factor signs in with it alone.
  public static let unsupportedFirstFactor: Self = "UNSUPPORTED_FIRST_FACTOR"
}

/// What `sendVerificationCode` answers: the session the code belongs to.
public struct IdentityToolkitVerificationSent: Codable, Equatable, Hashable, Sendable,
  EmulatorEncodable
{
  /// Sent back with the code to `signInWithPhoneNumber`.
  public var sessionInfo: String

  /// An answer holding `sessionInfo`.
  public init(sessionInfo: String) {
    self.sessionInfo = sessionInfo
  }

  /// `{"sessionInfo": …}`.
  public var emulatorJSON: EmulatorJSON { .members(["sessionInfo": .string(sessionInfo)]) }
}

/// What `signInWithPhoneNumber` answers: whether the user is new, the number, the user's id
/// and tokens; or, when the number belongs to another account than the ID token's, only the
/// number and a `temporaryProof` of it.
public struct IdentityToolkitPhoneSignIn: Codable, Equatable, Hashable, Sendable,
  EmulatorEncodable
{
  /// Whether the sign-in made the account.
  public var isNewUser: Bool?
  /// The number, E.164.
  public var phoneNumber: String
  /// The user's id.
  public var localId: String?
  /// The ID token.
  public var idToken: String?
  /// The refresh token.
  public var refreshToken: String?
  /// Seconds the ID token lives, as a string.
  public var expiresIn: String?
  /// A proof of the number, to sign in with it again without a new code.
  public var temporaryProof: String?
  /// Seconds the proof lives, as a string.
  public var temporaryProofExpiresIn: String?

  /// A sign-in with the given parts.
  public init(
    isNewUser: Bool? = nil, phoneNumber: String, localId: String? = nil, idToken: String? = nil,
    refreshToken: String? = nil, expiresIn: String? = nil, temporaryProof: String? = nil,
    temporaryProofExpiresIn: String? = nil
  ) {
    self.isNewUser = isNewUser
    self.phoneNumber = phoneNumber
    self.localId = localId
    self.idToken = idToken
    self.refreshToken = refreshToken
    self.expiresIn = expiresIn
    self.temporaryProof = temporaryProof
    self.temporaryProofExpiresIn = temporaryProofExpiresIn
  }

  /// `isNewUser`, `phoneNumber`, `localId`, the tokens; or `phoneNumber`, `temporaryProof`,
  /// `temporaryProofExpiresIn`, in the emulator's order.
  public var emulatorJSON: EmulatorJSON {
    .members([
      "isNewUser": .maybe(isNewUser), "phoneNumber": .string(phoneNumber),
      "localId": .maybe(localId), "idToken": .maybe(idToken), "refreshToken": .maybe(refreshToken),
      "expiresIn": .maybe(expiresIn), "temporaryProof": .maybe(temporaryProof),
      "temporaryProofExpiresIn": .maybe(temporaryProofExpiresIn),
    ])
  }
}

/// A code as the emulator's `verificationCodes` lists it.
public struct EmulatorVerificationCode: Codable, Equatable, Hashable, Sendable,
  EmulatorEncodable
{
  /// The number it was texted to.
  public var phoneNumber: String
  /// Its session.
  public var sessionInfo: String
  /// The six digits.
  public var code: String

  /// An entry with the given parts.
  public init(phoneNumber: String, sessionInfo: String, code: String) {
    self.phoneNumber = phoneNumber
    self.sessionInfo = sessionInfo
    self.code = code
  }

  /// `code`, `phoneNumber`, `sessionInfo`, in the order the emulator makes its records.
  public var emulatorJSON: EmulatorJSON {
    .members([
      "code": .string(code), "phoneNumber": .string(phoneNumber),
      "sessionInfo": .string(sessionInfo),
    ])
  }
}

/// The emulator's listing of texted codes.
public struct EmulatorVerificationCodes: Codable, Equatable, Hashable, Sendable,
  EmulatorEncodable
{
  /// The codes, oldest first.
  public var verificationCodes: [EmulatorVerificationCode]

  /// A listing of `verificationCodes`.
  public init(verificationCodes: [EmulatorVerificationCode]) {
    self.verificationCodes = verificationCodes
  }

  /// `{"verificationCodes":[…]}`.
  public var emulatorJSON: EmulatorJSON {
    .members(["verificationCodes": .array(verificationCodes.map(\.emulatorJSON))])
  }
}
