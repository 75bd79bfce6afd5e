import AccountStore
import GoTrue
import Testing

/// Each operation of the store does the same on both stores: one suite, run on the embedded
/// SQLite store and on a new PostgreSQL database (in GoTrue's schema).
struct AccountOperationsTests {
  enum Kind: String, CaseIterable, CustomTestStringConvertible {
    case sqlite, postgres
    var testDescription: String { rawValue }
  }

  static let ada = "0c9a7b2e-1f3d-4e5a-8b6c-00000000a0a0"
  static let now: Int64 = 1_735_689_600_000

  /// A new store of `kind`, filled with the two secrets every store starts with.
  static func store(_ kind: Kind) throws -> any AccountStoring {
    let location: StoreLocation =
      switch kind {
      case .sqlite: .memory
      case .postgres: .postgres(try makePostgresDatabase())
      }
    return try location.open {
      { (accounts: Accounts<AccountStoreError>) throws(AccountStoreError) in
        try accounts.setSecret("jwt_secret", [1, 2, 3])
        _ = try accounts.addDecoyHash("$2b$04$decoy", cost: 4)
      }
    }
  }

  /// Runs `body` in one write transaction of `store` (a failed expectation throws too).
  static func write<T>(
    _ store: any AccountStoring, _ body: (Accounts<AccountStoreError>) throws -> T
  ) throws -> T {
    try store.write(as: AccountStoreError.self, body)
  }

  static func newUser(_ id: String = ada, email: String? = "ada@example.com") -> NewUser {
    var user = NewUser(
      id: id, email: email, passwordHash: "$2b$04$hash", identityID: nil, now: now)
    user.userMetadata = ["full_name": .string("Ada Lovelace"), "email": .string("x")]
    user.identityData = ["sub": .string(id)]
    return user
  }

  @Test(arguments: Kind.allCases) func usersAreAddedFoundChangedListedAndDeleted(kind: Kind) throws
  {
    let store = try Self.store(kind)
    try Self.write(store) { accounts in
      var user = Self.newUser()
      user.identityID = "0c9a7b2e-1f3d-4e5a-8b6c-00000000a1a1"
      let added = try accounts.insertUser(user)
      #expect(added.id == Self.ada)
      #expect(added.email == "ada@example.com")
      #expect(added.identityID == "0c9a7b2e-1f3d-4e5a-8b6c-00000000a1a1")
      #expect(added.userMetadata["full_name"] == .string("Ada Lovelace"))
      #expect(added.createdAt == Self.now)
      #expect(try accounts.user(email: "ada@example.com")?.id == Self.ada)
      #expect(try accounts.user(email: "nobody@example.com") == nil)
      #expect(
        try !accounts.insertUserUnlessTaken(Self.newUser("0c9a7b2e-1f3d-4e5a-8b6c-00000000b0b0")))

      try accounts.updateUser(Self.ada, [.confirmEmail(at: Self.now + 1)])
      let changed = try accounts.updatedUser(
        Self.ada,
        [
          .confirmEmail(at: Self.now + 2),
          .newEmail("lovelace@example.com"), .emailChangeConfirmed(true), .role("admin"),
          .appMetadata(["plan": .string("pro")]), .bannedUntil(Self.now + 10),
          .displayName("Ada"), .photoURL("https://example.com/ada.png"),
          .validSince(Self.now), .customClaims(#"{"admin":true}"#), .emailLinkSignin(true),
          .customAuth(true), .initialEmail("ada@example.com"), .passwordUpdatedAt(Self.now),
          .lastSignInAt(Self.now + 3), .invitedAt(Self.now + 4), .updatedAt(Self.now + 5),
          .displayName("Countess"),
        ])
      #expect(changed.emailConfirmedAt == Self.now + 1, "a confirmed address stays confirmed")
      #expect(changed.newEmail == "lovelace@example.com")
      #expect(changed.emailChangeConfirmed)
      #expect(changed.role == "admin")
      #expect(changed.appMetadata == ["plan": .string("pro")])
      #expect(changed.isBanned(at: Self.now + 9))
      #expect(changed.displayName == "Countess", "the later change to a column holds")
      #expect(changed.photoURL == "https://example.com/ada.png")
      #expect(changed.validSince == Self.now)
      #expect(changed.customClaims == #"{"admin":true}"#)
      #expect(changed.emailLinkSignin && changed.customAuth)
      #expect(changed.initialEmail == "ada@example.com")
      #expect(changed.lastSignInAt == Self.now + 3)
      #expect(changed.invitedAt == Self.now + 4)
      #expect(changed.updatedAt == Self.now + 5)
      #expect(try accounts.user(newEmail: "lovelace@example.com")?.id == Self.ada)
      #expect(
        changed.userMetadata(withEmail: "new@example.com")?["email"] == .string("new@example.com"))

      try accounts.insertUser(
        Self.newUser("0c9a7b2e-1f3d-4e5a-8b6c-00000000c0c0", email: "bob@example.com"))
      let (page, total) = try accounts.users(
        UserQuery(containing: "LOVELACE", newestFirst: true, limit: 10, offset: 0))
      #expect(total == 2, "both carry Ada Lovelace's full name")
      #expect(page.count == 2)
      #expect(try accounts.userCount() == 2)
      #expect(try accounts.liveUserCount() == 2)
      #expect(try accounts.liveUsers(after: "", limit: 1).count == 1)
      #expect(
        try accounts.liveUsers(descending: true).map(\.id).first
          == "0c9a7b2e-1f3d-4e5a-8b6c-00000000c0c0")
      #expect(try accounts.liveUsersOldestFirst().count == 2)
      try accounts.updateUser(Self.ada, [.deletedAt(Self.now), .email(nil)])
      #expect(try accounts.liveUserCount() == 1)
      try accounts.deleteUser(email: "bob@example.com")
      try accounts.deleteUser(Self.ada)
      #expect(try accounts.userCount() == 0)
    }
  }

  @Test(arguments: Kind.allCases) func aFirebaseUidThatIsNoUUIDNamesItsUser(kind: Kind) throws {
    let store = try Self.store(kind)
    try Self.write(store) { accounts in
      var user = Self.newUser("custom-uid-1", email: nil)
      user.isAnonymous = true
      try accounts.insertUser(user)
      #expect(try accounts.existingUser(id: "custom-uid-1").isAnonymous)
      try accounts.insertSession(
        id: "0c9a7b2e-1f3d-4e5a-8b6c-0000000000d1", userID: "custom-uid-1", method: .firebase,
        now: Self.now)
      #expect(
        try accounts.session(id: "0c9a7b2e-1f3d-4e5a-8b6c-0000000000d1")?.userID == "custom-uid-1")
      #expect(
        try accounts.session(id: "0c9a7b2e-1f3d-4e5a-8b6c-0000000000d1", ofUser: "other") == nil)
    }
  }

  @Test(arguments: Kind.allCases) func sessionsTokensAndProofs(kind: Kind) throws {
    let store = try Self.store(kind)
    let session = "0c9a7b2e-1f3d-4e5a-8b6c-0000000000e1"
    let other = "0c9a7b2e-1f3d-4e5a-8b6c-0000000000e2"
    let factor = "0c9a7b2e-1f3d-4e5a-8b6c-0000000000f1"
    try Self.write(store) { accounts in
      try accounts.insertUser(Self.newUser())
      try accounts.insertSession(id: session, userID: Self.ada, method: .password, now: Self.now)
      try accounts.insertSession(id: other, userID: Self.ada, method: .otp, now: Self.now)
      try accounts.insertRefreshToken(hash: [1, 1], session: session, parent: nil, now: Self.now)
      let first = try #require(try accounts.refreshToken(hash: [1, 1]))
      #expect(first.revokedAt == nil)
      #expect(first.session.method == .password)
      try accounts.revokeRefreshToken(first, at: Self.now + 1)
      try accounts.insertRefreshToken(
        hash: [2, 2], session: session, parent: first, now: Self.now + 1)
      #expect(try accounts.refreshToken(hash: [1, 1])?.revokedAt == Self.now + 1)
      try accounts.markRefreshed(session: session, at: Self.now + 1)
      #expect(try accounts.session(id: session)?.refreshedAt == Self.now + 1)
      #expect(try accounts.lastRefresh(ofUser: Self.ada) == Self.now + 1)

      try accounts.insertFactor(
        id: factor, userID: Self.ada, friendlyName: "phone", sealedSecret: [9, 9, 9], now: Self.now)
      try accounts.recordProof(of: "totp", inSession: session, now: Self.now + 2)
      try accounts.raiseToAAL2(session: session, by: factor)
      try accounts.revokeRefreshTokens(ofSession: session, at: Self.now + 2)
      #expect(try accounts.refreshToken(hash: [2, 2])?.revokedAt == Self.now + 2)
      #expect(try accounts.session(id: session)?.aal == "aal2")
      #expect(
        try accounts.provedMethods(inSession: session) == [
          ProvedMethod(method: "totp", provedAt: Self.now + 2)
        ])
      try accounts.setFirebaseSignIn(session: other, provider: "custom", claims: "{}")
      #expect(try accounts.session(id: other)?.firebaseProvider == "custom")
      try accounts.downgradeSessions(raisedBy: factor)
      #expect(try accounts.session(id: session)?.aal == "aal1")
      #expect(try accounts.provedMethods(inSession: session).isEmpty)
      try accounts.deleteSessionsBelowAAL2(ofUser: Self.ada)
      #expect(try accounts.session(id: session) == nil)
      try accounts.insertSession(id: session, userID: Self.ada, method: .password, now: Self.now)
      try accounts.deleteSessions(ofUser: Self.ada, refreshedBefore: Self.now + 1)
      #expect(try accounts.session(id: session) == nil)
      try accounts.insertSession(id: session, userID: Self.ada, method: .password, now: Self.now)
      try accounts.insertSession(id: other, userID: Self.ada, method: .password, now: Self.now)
      try accounts.deleteSessions(ofUser: Self.ada, except: other)
      #expect(try accounts.session(id: other) != nil && accounts.session(id: session) == nil)
      try accounts.deleteSession(other)
      #expect(try accounts.session(id: other) == nil)
    }
  }

  @Test(arguments: Kind.allCases) func codesFactorsChallengesAndFlows(kind: Kind) throws {
    let store = try Self.store(kind)
    let factor = "0c9a7b2e-1f3d-4e5a-8b6c-0000000000f1"
    let challenge = "0c9a7b2e-1f3d-4e5a-8b6c-0000000000f2"
    let flow = "0c9a7b2e-1f3d-4e5a-8b6c-0000000000f3"
    try Self.write(store) { accounts in
      try accounts.insertUser(Self.newUser())
      let code = NewCode(
        userID: Self.ada, kind: .recovery, codeHash: [7], linkHash: [8], createdAt: Self.now,
        expiresAt: Self.now + 60_000)
      try accounts.replaceCode(code, forgettingExpiredBefore: Self.now - 1)
      let stored = try #require(try accounts.code(ofUser: Self.ada, kind: .recovery, codeHash: [7]))
      #expect(try accounts.code(linkHash: [8])?.id == stored.id)
      try accounts.markCodeUsed(stored.id, at: Self.now + 1)
      #expect(try accounts.code(linkHash: [8])?.usedAt == Self.now + 1)
      try accounts.replaceCode(code, forgettingExpiredBefore: Self.now - 1)
      try accounts.deleteUnusedCodes(ofUser: Self.ada, kinds: [.recovery])
      #expect(try accounts.code(linkHash: [8])?.usedAt == Self.now + 1, "a spent code stays")

      try accounts.insertFactor(
        id: factor, userID: Self.ada, friendlyName: "phone", sealedSecret: [9, 9, 9], now: Self.now)
      try accounts.updateFactor(
        factor, [.lastUsedStep(42), .friendlyName("laptop"), .updatedAt(Self.now + 1)])
      let record = try #require(try accounts.factor(id: factor, ofUser: Self.ada))
      #expect(record.friendlyName == "laptop")
      #expect(record.sealedSecret == [9, 9, 9])
      #expect(record.lastUsedStep == 42)
      #expect(try accounts.existingUser(id: Self.ada).factors.map(\.id) == [factor])
      try accounts.insertChallenge(
        id: challenge, factorID: factor, ipAddress: "127.0.0.1", now: Self.now)
      try accounts.countWrongCode(challenge: challenge)
      try accounts.markVerified(challenge: challenge, at: Self.now + 1)
      let asked = try #require(try accounts.challenge(id: challenge, ofFactor: factor))
      #expect(asked.failedAttempts == 1)
      #expect(asked.ipAddress == "127.0.0.1")
      #expect(asked.verifiedAt == Self.now + 1)
      #expect(try accounts.factors(ofUser: Self.ada).first?.lastChallengedAt == Self.now)
      try accounts.deleteChallenge(challenge)
      #expect(try accounts.challenge(id: challenge, ofFactor: factor) == nil)
      try accounts.updateFactor(factor, [.verified])
      try accounts.deleteUnverifiedFactors(ofUser: Self.ada)
      try accounts.deleteAbandonedFactors(olderThan: 1, now: Self.now + 10_000)
      #expect(try accounts.factors(ofUser: Self.ada).count == 1, "a verified factor stays")
      try accounts.deleteFactor(factor)
      #expect(try accounts.factors(ofUser: Self.ada).isEmpty)

      try accounts.insertFlowState(
        id: flow, userID: Self.ada, challenge: PKCEChallenge(challenge: "abc", method: .s256),
        method: .recovery, now: Self.now, forgettingBefore: Self.now - 1)
      #expect(try accounts.newestFlowState(ofUser: Self.ada, method: .recovery)?.id == flow)
      try accounts.setAuthCode(hash: [5, 5], ofFlow: flow, now: Self.now + 1)
      let found = try #require(try accounts.flowState(authCodeHash: [5, 5]))
      #expect(found.codeIssuedAt == Self.now + 1)
      #expect(found.challenge.challenge == "abc")
      try accounts.deleteFlowState(flow)
      #expect(try accounts.flowState(authCodeHash: [5, 5]) == nil)
      try accounts.deleteBelongings(ofUser: Self.ada)
    }
  }

  @Test(arguments: Kind.allCases) func budgetsSecretsAndTheFirebaseRows(kind: Kind) throws {
    let store = try Self.store(kind)
    try Self.write(store) { accounts in
      try accounts.insertUser(Self.newUser())
      try accounts.setBucket("verify:ab", tokens: 2.5, now: Self.now)
      #expect(try accounts.bucket("verify:ab")?.tokens == 2.5)
      try accounts.deleteBuckets(prefixed: "verify:", untouchedSince: Self.now + 1)
      #expect(try accounts.bucket("verify:ab") == nil)
      try accounts.recordEmail(toAddressHash: [3], now: Self.now, forgettingBefore: Self.now - 1)
      #expect(try accounts.lastEmail(toAddressHash: [3]) == Self.now)
      #expect(try accounts.secret("jwt_secret") == [1, 2, 3])
      #expect(try accounts.decoyHashes() == ["$2b$04$decoy"])
      #expect(try accounts.addDecoyHash("$2b$04$other", cost: 4) == "$2b$04$decoy")

      try accounts.insertOutOfBandCode(
        NewOutOfBandCode(
          codeHash: [4], requestType: "PASSWORD_RESET", email: "ada@example.com", newEmail: nil,
          userID: Self.ada, continueURL: "https://example.com", createdAt: Self.now,
          expiresAt: Self.now + 1),
        forgettingExpiredBefore: Self.now - 1)
      let oob = try #require(try accounts.outOfBandCode(hash: [4]))
      #expect(oob.userID == Self.ada && oob.requestType == "PASSWORD_RESET")
      try accounts.markOutOfBandCodeUsed(oob.id, at: Self.now)
      #expect(try accounts.outOfBandCode(hash: [4])?.usedAt == Self.now)

      try accounts.insertPendingSignIn(
        credentialHash: [6], userID: Self.ada, provider: "password", now: Self.now,
        forgettingBefore: Self.now - 1)
      try accounts.countWrongCode(pendingSignIn: [6])
      #expect(try accounts.pendingSignIn(credentialHash: [6])?.failedAttempts == 1)
      try accounts.deletePendingSignIn(credentialHash: [6])
      #expect(try accounts.pendingSignIn(credentialHash: [6]) == nil)
      try accounts.deleteAllUsers()
      #expect(try accounts.userCount() == 0)
    }
  }

  @Test(arguments: Kind.allCases) func aRefusalUndoesItsWritesAndTheTransactionGoesOn(kind: Kind)
    throws
  {
    let store = try Self.store(kind)
    struct Refusal: Error {}
    try Self.write(store) { accounts in
      try accounts.insertUser(Self.newUser())
      do {
        try accounts.undoingOnAnyFailure {
          try accounts.updateUser(Self.ada, [.displayName("undone")])
          throw Refusal()
        }
      } catch is Refusal {
      } catch {
        Issue.record("\(error)")
      }
      #expect(try accounts.existingUser(id: Self.ada).displayName == nil)
    }
    #expect(
      try store.withAccounts { (accounts: Accounts<AccountStoreError>) throws(AccountStoreError) in
        try accounts.userCount()
      } == 1)
    #expect(try store.rows("SELECT 1", columns: 1) == [["1"]])
  }
}
