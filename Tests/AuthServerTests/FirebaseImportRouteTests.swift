import AccountStore
import AuthCrypto
import Foundation
import GoTrue
import GoTrueEngine
import HTTPServer
import IdentityToolkit
import Testing

@testable import AuthServer

/// `accounts:batchCreate` (and v3 `uploadAccount`): the emulator's answers and errors, and
/// imported passwords signing in on both surfaces, rehashed with bcrypt the first time.
struct FirebaseImportRouteTests {
  static let done = #"{"kind":"identitytoolkit#UploadAccountResponse","error":[]}"#

  /// The stored password hash of `id`.
  static func storedHash(_ server: FirebaseTestServer, _ id: String) throws -> String? {
    try server.engine.withDatabase { database throws(GoTrueAPIError) in
      try database.user(id: id)?.passwordHash
    }
  }

  @Test func importedHashesSignInOnBothSurfacesAndAreRehashedOnce() async throws {
    let server = try FirebaseTestServer()
    // HMAC-SHA256 of "pepper" + "Secret123" under "signer" (Python's hmac, as in
    // ImportedPasswordTests), sent as the Admin SDKs send bytes: base64url.
    let hash = "IP-ypAQ4G6yf4DQdTDpzrjQUfGgF52xgEZ2LJHrOw4w"
    let body = """
      {"hashAlgorithm":"HMAC_SHA256","signerKey":"c2lnbmVy","users":[
      {"localId":"h1","email":"Hmac@Example.com","passwordHash":"\(hash)","salt":"cGVwcGVy",
      "emailVerified":true,"displayName":"Ada","photoUrl":"https://example.com/a.png",
      "customAttributes":"{\\"role\\":\\"admin\\"}","createdAt":1700000000000,
      "lastLoginAt":"1700000001000"},
      {"localId":"h2","email":"other@example.com","passwordHash":"\(hash)","salt":"cGVwcGVy",
      "emailVerified":true,"disabled":true}]}
      """
    let reply = await server.admin("accounts:batchCreate", body)
    #expect(reply.status == 200 && reply.text == Self.done, "\(reply.text)")
    let stored = try #require(try Self.storedHash(server, "h1"))
    // An export shows an admin neither the importer's signer key nor a hash of another
    // algorithm: empty strings, as production exports such users.
    let listed = await server.send(
      .get, "\(FirebaseTestServer.admin)/accounts:batchGet",
      headers: [("Authorization", "Bearer owner")])
    let exported = try #require(
      (listed.object?["users"] as? [[String: Any]])?.first { $0["localId"] as? String == "h1" })
    #expect(exported["passwordHash"] as? String == "" && exported["salt"] as? String == "")
    #expect(!listed.text.contains("c2lnbmVy") && !listed.text.contains("fbimport"))
    #expect(stored.hasPrefix("$fbimport$v=1,alg=HMAC_SHA256,order=SALT_AND_PASSWORD,key=c2lnbmVy$"))

    let lookup = await server.admin("accounts:lookup", #"{"localId":["h1"]}"#)
    let user = try #require((lookup.object?["users"] as? [[String: Any]])?.first)
    #expect(user["email"] as? String == "hmac@example.com")
    #expect(user["emailVerified"] as? Bool == true)
    #expect(user["displayName"] as? String == "Ada")
    #expect(user["photoUrl"] as? String == "https://example.com/a.png")
    #expect(user["customAttributes"] as? String == #"{"role":"admin"}"#)
    #expect(user["createdAt"] as? String == "1700000000000")
    #expect(user["lastLoginAt"] as? String == "1700000001000")

    let wrong = await server.call(
      "signInWithPassword", #"{"email":"hmac@example.com","password":"Secret124"}"#)
    #expect(wrong.googleMessage == "INVALID_PASSWORD")
    #expect(try Self.storedHash(server, "h1") == stored, "a miss keeps the imported hash")
    let disabled = await server.call(
      "signInWithPassword", #"{"email":"other@example.com","password":"Secret123"}"#)
    #expect(disabled.googleMessage == "USER_DISABLED")

    let signIn = await server.call(
      "signInWithPassword", #"{"email":"hmac@example.com","password":"Secret123"}"#)
    #expect(signIn.status == 200 && signIn.object?["localId"] as? String == "h1")
    let rehashed = try #require(try Self.storedHash(server, "h1"))
    #expect(
      Bcrypt.cost(of: rehashed) == Bcrypt.minimumCost
        && Bcrypt.verify("Secret123", against: rehashed))
    // GoTrue's sign-in reads the same account, now bcrypt's.
    let session = try await server.engine.signIn(email: "HMAC@example.com", password: "Secret123")
    #expect(session.user.id == "h1")
    #expect(try Self.storedHash(server, "h1") == rehashed)
  }

  @Test func goTruesSignInChecksAndRehashesAnImportedHashToo() async throws {
    let server = try FirebaseTestServer()
    // PBKDF2-SHA256 of "Secret123" with salt "pepper", 1000 rounds (Python's hashlib).
    let hash = "k4JO1fbQLOyx9ESfiLFPdJmibxf7wz-ObJHgWgmLdKg"
    let body = """
      {"hashAlgorithm":"PBKDF2_SHA256","rounds":1000,"users":[{"localId":"p1",
      "email":"p@example.com","passwordHash":"\(hash)","salt":"cGVwcGVy","emailVerified":true}]}
      """
    #expect(await server.admin("accounts:batchCreate", body).text == Self.done)
    await #expect(throws: GoTrueFailure.self) {
      try await server.engine.signIn(email: "p@example.com", password: "Secret1234")
    }
    #expect(try Self.storedHash(server, "p1")?.hasPrefix("$fbimport$") == true)
    let session = try await server.engine.signIn(email: "p@example.com", password: "Secret123")
    #expect(session.user.id == "p1")
    #expect(try Self.storedHash(server, "p1")?.hasPrefix("$2b$") == true)
  }

  @Test func clearPasswordsAndTheEmulatorsFakeHashAreBcryptedAtImport() async throws {
    let server = try FirebaseTestServer()
    let body = """
      {"users":[{"localId":"raw","email":"raw@example.com","rawPassword":"notasecret"},
      {"localId":"fake","email":"fake@example.com","salt":"beach",
      "passwordHash":"fakeHash:salt=beach:password=hawaii"},
      {"localId":"none","email":"none@example.com"}]}
      """
    #expect(await server.admin("accounts:batchCreate", body).text == Self.done)
    for (id, email, password) in [
      ("raw", "raw@example.com", "notasecret"), ("fake", "fake@example.com", "hawaii"),
    ] {
      #expect(try Self.storedHash(server, id)?.hasPrefix("$2b$") == true)
      let signIn = await server.call(
        "signInWithPassword", #"{"email":"\#(email)","password":"\#(password)"}"#)
      #expect(signIn.object?["localId"] as? String == id, "\(signIn.text)")
    }
    let none = await server.call(
      "signInWithPassword", #"{"email":"none@example.com","password":"anything"}"#)
    #expect(none.googleMessage == "INVALID_PASSWORD")
  }

  @Test func bcryptHashesAreKeptAsTheyAre() async throws {
    let server = try FirebaseTestServer()
    let bcrypt = try Bcrypt.hash("Secret123", cost: Bcrypt.minimumCost, random: SystemRandom())
    let encoded = Base64URL.encode(Array(bcrypt.utf8))
    let body = """
      {"hashAlgorithm":"BCRYPT","users":[{"localId":"b1","email":"b@example.com",
      "passwordHash":"\(encoded)"},{"localId":"b2","email":"c@example.com","passwordHash":"AAAA"}]}
      """
    let reply = await server.admin("accounts:batchCreate", body)
    #expect(
      reply.text
        == #"{"kind":"identitytoolkit#UploadAccountResponse","error":[{"index":1,"message":"passwordHash is not a bcrypt hash"}]}"#
    )
    #expect(try Self.storedHash(server, "b1") == bcrypt)
    let signIn = await server.call(
      "signInWithPassword", #"{"email":"b@example.com","password":"Secret123"}"#)
    #expect(signIn.status == 200)
  }

  @Test func theRequestIsRefusedWholeInTheEmulatorsWords() async throws {
    let server = try FirebaseTestServer()
    for (body, message) in [
      (#"{"users":[]}"#, "MISSING_USER_ACCOUNT"), ("{}", "MISSING_USER_ACCOUNT"),
      (
        #"{"sanityCheck":true,"users":[{"localId":"a","email":"x@example.com"},{"localId":"b","email":"x@example.com"}]}"#,
        "DUPLICATE_EMAIL : x@example.com"
      ),
      (
        #"{"sanityCheck":true,"users":[{"localId":"a","providerUserInfo":[{"providerId":"google.com","rawId":"dup"}]},{"localId":"b","providerUserInfo":[{"providerId":"google.com","rawId":"dup"}]}]}"#,
        "DUPLICATE_RAW_ID : Provider id(google.com), Raw id(dup)"
      ),
      (#"{"users":[{"localId":"a"},{"localId":"a"}]}"#, "DUPLICATE_LOCAL_ID : a"),
      (
        #"{"hashAlgorithm":"ARGON2","users":[{"localId":"a"}]}"#,
        "INVALID_HASH_ALGORITHM : ARGON2 is none of BCRYPT, MD5, SHA1, SHA256, SHA512, HMAC_MD5, "
          + "HMAC_SHA1, HMAC_SHA256, HMAC_SHA512, PBKDF_SHA1, PBKDF2_SHA256, STANDARD_SCRYPT, SCRYPT"
      ),
      (
        #"{"hashAlgorithm":"HMAC_SHA256","users":[{"localId":"a"}]}"#,
        "INVALID_HASH_KEY : signerKey must be a key in base64"
      ),
      (
        #"{"hashAlgorithm":"PBKDF2_SHA256","rounds":0,"users":[{"localId":"a"}]}"#,
        "INVALID_HASH_ROUNDS : must be 1 to 120000, not 0"
      ),
      (
        #"{"hashAlgorithm":"STANDARD_SCRYPT","cpuMemCost":1000,"blockSize":8,"parallelization":1,"users":[{"localId":"a"}]}"#,
        "INVALID_HASH_MEMORY_COST : cpuMemCost must be a power of two above 1"
      ),
      (
        #"{"users":[{"localId":1,"email":["a"]}]}"#,
        "Invalid JSON payload received. /users/0/email should be string"
      ),
      (#"{"users":["a"]}"#, "Invalid JSON payload received. /users/0 should be object"),
    ] {
      let reply = await server.admin("accounts:batchCreate", body)
      #expect(reply.status == 400, "\(body)")
      #expect(reply.googleMessage == message, "\(body)")
    }
    let user = await server.send(
      .post, "\(FirebaseTestServer.admin)/accounts:batchCreate",
      body: #"{"users":[{"localId":"a"}]}"#,
      query: [("key", "k")])
    #expect(user.status == 400 && user.googleMessage?.hasPrefix("INSUFFICIENT_PERMISSION") == true)
  }

  @Test func eachRefusedUserIsNamedByItsIndex() async throws {
    let server = try FirebaseTestServer()
    _ = try await server.signUp("taken@example.com")
    let long = String(repeating: "x", count: 998)
    let body = """
      {"users":[{"email":"foo@example.com"},{"localId":"test1"},
      {"localId":"test2","email":"not#an$email"},{"localId":"test3","phoneNumber":"not#a$phone"},
      {"localId":"test4","customAttributes":"not#a$json%object"},
      {"localId":"test5","customAttributes":"{\\"sub\\": \\"123\\"}"},
      {"localId":"test6","customAttributes":"{\\"a\\":\\"\(long)\\"}"},
      {"localId":"test7","providerUserInfo":[{"providerId":"google.com"}]},
      {"localId":"test8","providerUserInfo":[{"rawId":"012345"}]},
      {"localId":"test9","providerUserInfo":[{"federatedId":"foo-bar"}]},
      {"localId":"test10","mfaInfo":[{"phoneInfo":"+15555550100"}]},
      {"localId":"test11","email":"someone@example.com","mfaInfo":[{"phoneInfo":"+15555550100"}]},
      {"localId":"test12","email":"taken@example.com"},
      {"localId":"test13","tenantId":"t"},
      {"localId":"test14","phoneNumber":"+15555550100"},
      {"localId":"test15","providerUserInfo":[{"providerId":"google.com","rawId":"g1"}]},
      {"localId":"test16","email":"mfa@example.com","emailVerified":true,
      "mfaInfo":[{"phoneInfo":"+15555550100"}]},
      {"localId":"test17","mfaInfo":[]}]}
      """
    let reply = await server.admin("accounts:batchCreate", body)
    #expect(reply.status == 200)
    let errors = try #require(reply.object?["error"] as? [[String: Any]])
    let told = errors.map { "\($0["index"] as? Int ?? -1): \($0["message"] as? String ?? "")" }
    #expect(
      told == [
        "0: localId is missing", "2: email is invalid", "3: phone number format is invalid",
        "4: Invalid custom claims provided.",
        "5: Custom claims provided include a reserved claim.",
        "6: Custom claims provided are too large.",
        "7: federatedId or (providerId & rawId) is required",
        "8: federatedId or (providerId & rawId) is required",
        "9: ((Parsing federatedId is not implemented in Auth Emulator; please specify "
          + "providerId AND rawId as a workaround.))",
        "10: Second factor account requires email to be presented.",
        "11: Second factor account requires email to be verified.",
        "12: ((authflow serve does not support importing duplicate email: taken@example.com))",
        "13: Tenant id in userInfo does not match the tenant id in request.",
        "16: mfaInfo is not kept by authflow serve: it keeps TOTP factors only",
      ])
    let kept = await server.admin(
      "accounts:lookup", #"{"localId":["test1","test17","test2","test14","test15"]}"#)
    #expect(
      (kept.object?["users"] as? [[String: Any]])?.compactMap { $0["localId"] as? String }
        == ["test1", "test17", "test14", "test15"])
    let sanity = await server.admin(
      "accounts:batchCreate",
      #"{"sanityCheck":true,"users":[{"localId":"x","email":"taken@example.com"}]}"#)
    #expect(
      sanity.text
        == #"{"kind":"identitytoolkit#UploadAccountResponse","error":[{"index":0,"message":"email exists in other account in database"}]}"#
    )
  }

  @Test func anExistingIdIsRefusedUnlessOverwrittenWhole() async throws {
    let server = try FirebaseTestServer()
    let existing = try await server.signUp("old@example.com")
    let id = try #require(existing["localId"] as? String)
    let refused = await server.admin(
      "accounts:batchCreate", #"{"users":[{"localId":"\#(id)","displayName":"New"}]}"#)
    #expect(
      refused.text
        == #"{"kind":"identitytoolkit#UploadAccountResponse","error":[{"index":0,"message":"localId belongs to an existing account - can not overwrite."}]}"#
    )
    let overwritten = await server.admin(
      "accounts:batchCreate",
      #"{"allowOverwrite":true,"users":[{"localId":"\#(id)","displayName":"New"}]}"#)
    #expect(overwritten.text == Self.done)
    let lookup = await server.admin("accounts:lookup", #"{"localId":["\#(id)"]}"#)
    let user = try #require((lookup.object?["users"] as? [[String: Any]])?.first)
    #expect(user["displayName"] as? String == "New")
    #expect(user["email"] == nil, "what the import does not give is gone")
  }

  @Test func theLegacyUploadAccountNamesItsProject() async throws {
    let server = try FirebaseTestServer()
    let path = "/www.googleapis.com/identitytoolkit/v3/relyingparty/uploadAccount"
    let owner = [("Authorization", "Bearer owner")]
    let missing = await server.send(
      .post, path, body: #"{"users":[{"localId":"u"}]}"#, headers: owner)
    #expect(missing.googleMessage == "INSUFFICIENT_PERMISSION")
    let keyOnly = await server.send(
      .post, path, body: #"{"targetProjectId":"demo-app","users":[{"localId":"u"}]}"#,
      query: [("key", "k")])
    #expect(keyOnly.status == 400)
    let other = await server.send(
      .post, path, body: #"{"targetProjectId":"other","users":[{"localId":"u"}]}"#,
      headers: owner)
    #expect(other.googleMessage?.hasPrefix("Multiple projectIds") == true)
    let done = await server.send(
      .post, path,
      body:
        #"{"targetProjectId":"demo-app","users":[{"localId":"u","email":"u@example.com","rawPassword":"notasecret"}]}"#,
      headers: owner)
    #expect(done.text == Self.done)
    let signIn = await server.call(
      "signInWithPassword", #"{"email":"u@example.com","password":"notasecret"}"#)
    #expect(signIn.object?["localId"] as? String == "u")
  }
}
