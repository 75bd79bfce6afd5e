/// An admin's import of users (`accounts:batchCreate`, v3 `uploadAccount`), as the Admin SDKs'
/// `import_users` sends it.
extension IdentityToolkitRequest {
  /// `accounts:batchCreate`: the users, and how the passwords among them were hashed.
  public struct BatchCreate: IdentityToolkitBody {
    /// The users, each imported on its own (a failure names its index).
    public var users: [ImportedUser]?
    /// How the `passwordHash`es were made: `BCRYPT`, `MD5`, `SHA1`, `SHA256`, `SHA512`,
    /// `HMAC_MD5`, `HMAC_SHA1`, `HMAC_SHA256`, `HMAC_SHA512`, `PBKDF_SHA1`, `PBKDF2_SHA256`,
    /// `STANDARD_SCRYPT` or `SCRYPT` (Firebase's own).
    public var hashAlgorithm: String?
    /// The HMAC key, or Firebase scrypt's signer key (base64url).
    public var signerKey: String?
    /// Firebase scrypt's salt separator (base64url).
    public var saltSeparator: String?
    /// How many rounds: digests' repeats, PBKDF2's iterations, Firebase scrypt's block size.
    public var rounds: Int64?
    /// Firebase scrypt's memory cost (log2 of N); N itself for standard scrypt where
    /// `cpuMemCost` is not given.
    public var memoryCost: Int64?
    /// Standard scrypt's N.
    public var cpuMemCost: Int64?
    /// Standard scrypt's p.
    public var parallelization: Int64?
    /// Standard scrypt's r.
    public var blockSize: Int64?
    /// Standard scrypt's derived key length.
    public var dkLen: Int64?
    /// `SALT_AND_PASSWORD` (the default) or `PASSWORD_AND_SALT`.
    public var passwordHashOrder: String?
    /// Whether duplicates within the request are refused before anything is imported.
    public var sanityCheck: Bool?
    /// Whether a user whose id is taken replaces that account.
    public var allowOverwrite: Bool?
    /// The project (v3 `uploadAccount` names it in the body).
    public var targetProjectId: String?

    /// A request with the given members.
    public init(
      users: [ImportedUser]? = nil, hashAlgorithm: String? = nil, signerKey: String? = nil,
      saltSeparator: String? = nil, rounds: Int64? = nil, memoryCost: Int64? = nil,
      cpuMemCost: Int64? = nil, parallelization: Int64? = nil, blockSize: Int64? = nil,
      dkLen: Int64? = nil, passwordHashOrder: String? = nil, sanityCheck: Bool? = nil,
      allowOverwrite: Bool? = nil, targetProjectId: String? = nil
    ) {
      self.users = users
      self.hashAlgorithm = hashAlgorithm
      self.signerKey = signerKey
      self.saltSeparator = saltSeparator
      self.rounds = rounds
      self.memoryCost = memoryCost
      self.cpuMemCost = cpuMemCost
      self.parallelization = parallelization
      self.blockSize = blockSize
      self.dkLen = dkLen
      self.passwordHashOrder = passwordHashOrder
      self.sanityCheck = sanityCheck
      self.allowOverwrite = allowOverwrite
      self.targetProjectId = targetProjectId
    }
  }

  /// One user of an import.
  public struct ImportedUser: Codable, Equatable, Sendable {
    /// The user's id (required).
    public var localId: String?
    /// The email.
    public var email: String?
    /// Whether the email is verified.
    public var emailVerified: Bool?
    /// The display name.
    public var displayName: String?
    /// The photo URL.
    public var photoUrl: String?
    /// The password's hash (base64url), or the emulator's `fakeHash:salt=…:password=…`.
    public var passwordHash: String?
    /// The hash's salt (base64url).
    public var salt: String?
    /// A password in the clear (the emulator's).
    public var rawPassword: String?
    /// Whether the account is disabled.
    public var disabled: Bool?
    /// Custom claims, as JSON text.
    public var customAttributes: String?
    /// When the account was made, in milliseconds.
    public var createdAt: Int64?
    /// When the user last signed in, in milliseconds.
    public var lastLoginAt: Int64?
    /// The phone number (E.164).
    public var phoneNumber: String?
    /// The ways the user signs in with other providers.
    public var providerUserInfo: [ImportedProvider]?
    /// The user's second factors.
    public var mfaInfo: [ImportedFactor]?
    /// The tenant the user belongs to.
    public var tenantId: String?

    /// A user with the given members.
    public init(
      localId: String? = nil, email: String? = nil, emailVerified: Bool? = nil,
      displayName: String? = nil, photoUrl: String? = nil, passwordHash: String? = nil,
      salt: String? = nil, rawPassword: String? = nil, disabled: Bool? = nil,
      customAttributes: String? = nil, createdAt: Int64? = nil, lastLoginAt: Int64? = nil,
      phoneNumber: String? = nil, providerUserInfo: [ImportedProvider]? = nil,
      mfaInfo: [ImportedFactor]? = nil, tenantId: String? = nil
    ) {
      self.localId = localId
      self.email = email
      self.emailVerified = emailVerified
      self.displayName = displayName
      self.photoUrl = photoUrl
      self.passwordHash = passwordHash
      self.salt = salt
      self.rawPassword = rawPassword
      self.disabled = disabled
      self.customAttributes = customAttributes
      self.createdAt = createdAt
      self.lastLoginAt = lastLoginAt
      self.phoneNumber = phoneNumber
      self.providerUserInfo = providerUserInfo
      self.mfaInfo = mfaInfo
      self.tenantId = tenantId
    }
  }

  /// A provider entry of an imported user (`UserProvider` in the Admin SDKs).
  public struct ImportedProvider: Codable, Equatable, Sendable {
    /// The provider (`google.com`, `password`, `phone`).
    public var providerId: String?
    /// The user's id at the provider.
    public var rawId: String?
    /// The provider's id for the user (production parses it; the emulator does not).
    public var federatedId: String?
    /// The email at the provider.
    public var email: String?
    /// The display name at the provider.
    public var displayName: String?
    /// The photo URL at the provider.
    public var photoUrl: String?

    /// An entry with the given members.
    public init(
      providerId: String? = nil, rawId: String? = nil, federatedId: String? = nil,
      email: String? = nil, displayName: String? = nil, photoUrl: String? = nil
    ) {
      self.providerId = providerId
      self.rawId = rawId
      self.federatedId = federatedId
      self.email = email
      self.displayName = displayName
      self.photoUrl = photoUrl
    }
  }

  /// A second factor of an imported user.
  public struct ImportedFactor: Codable, Equatable, Sendable {
    /// The enrollment's id.
    public var mfaEnrollmentId: String?
    /// The factor's phone number.
    public var phoneInfo: String?
    /// The factor's name.
    public var displayName: String?
    /// When it was enrolled (RFC 3339).
    public var enrolledAt: String?

    /// A factor with the given members.
    public init(
      mfaEnrollmentId: String? = nil, phoneInfo: String? = nil, displayName: String? = nil,
      enrolledAt: String? = nil
    ) {
      self.mfaEnrollmentId = mfaEnrollmentId
      self.phoneInfo = phoneInfo
      self.displayName = displayName
      self.enrolledAt = enrolledAt
    }
  }
}
