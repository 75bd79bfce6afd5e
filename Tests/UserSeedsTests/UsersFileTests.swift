import Foundation
import GoTrue
import Testing

@testable import UserSeeds

/// Reading users files: authflow's format and the Firebase emulator's accounts.json, good and
/// bad, each refusal one line naming the entry and the field.
@Suite struct UsersFileTests {
  private func parse(_ text: String) throws(UsersFileError) -> [SeedAccount] {
    try UsersFile.parse(Array(text.utf8), file: "users.json")
  }

  private func refusal(_ text: String) -> String? {
    do {
      _ = try parse(text)
      return nil
    } catch {
      return error.description
    }
  }

  private let hash = "$2a$10$" + String(repeating: "a", count: 53)

  @Test func authflowEntryGivesEveryField() throws {
    let accounts = try parse(
      """
      {"users": [{"id": "6F9619FF-8B86-D011-B42D-00C04FC964FF", "email": "Ada@Example.com",
        "password": "correct horse", "email_confirm": true,
        "user_metadata": {"full_name": "Ada"}, "app_metadata": {"plan": "pro"},
        "role": "admin", "display_name": "Ada L", "photo_url": "https://example.com/a.png",
        "custom_claims": {"admin": true}, "disabled": true,
        "created_at": "2024-01-02T03:04:05Z"},
       {"id": "11111111-2222-3333-4444-555555555555", "email": "bob@example.com",
        "password_hash": "\(hash)"},
       {"id": "anon-1", "anonymous": true}]}
      """)
    var ada = SeedAccount(id: "6f9619ff-8b86-d011-b42d-00c04fc964ff", email: "ada@example.com")
    ada.password = .plain("correct horse")
    ada.emailConfirmed = true
    ada.userMetadata = ["full_name": .string("Ada")]
    ada.appMetadata = ["plan": .string("pro")]
    ada.role = "admin"
    ada.displayName = "Ada L"
    ada.photoURL = "https://example.com/a.png"
    ada.customClaims = #"{"admin":true}"#
    ada.disabled = true
    ada.createdAt = 1_704_164_645_000
    var bob = SeedAccount(id: "11111111-2222-3333-4444-555555555555", email: "bob@example.com")
    bob.password = .bcrypt(hash)
    #expect(accounts == [ada, bob, SeedAccount(id: "anon-1", email: nil)])
  }

  @Test func phoneNumbersAreReadInEitherFormatAsGoTrueKeepsThem() throws {
    let authflow = try parse(
      """
      {"users": [{"id": "p1", "phone": "+1 555 555 0100", "phone_confirm": true},
       {"id": "p2", "email": "b@example.com", "phone": "15555550101"}]}
      """)
    var first = SeedAccount(id: "p1", email: nil)
    (first.phone, first.phoneConfirmed) = ("15555550100", true)
    var second = SeedAccount(id: "p2", email: "b@example.com")
    second.phone = "15555550101"
    #expect(authflow == [first, second])
    #expect(!first.isAnonymous)
    let firebase = try parse(
      """
      {"kind": "identitytoolkit#DownloadAccountResponse", "users": [{"localId": "p1",
        "phoneNumber": "+15555550100", "providerUserInfo": [{"providerId": "phone",
        "phoneNumber": "+15555550100", "rawId": "+15555550100"}]}]}
      """)
    #expect(firebase == [first], "a Firebase number signs in: it is confirmed")
  }

  @Test func goTrueEncryptedPasswordIsReadAsTheHash() throws {
    let accounts = try parse(
      #"{"users":[{"id":"u1","email":"a@example.com","encrypted_password":"\#(hash)"}]}"#)
    #expect(accounts.first?.password == .bcrypt(hash))
  }

  @Test(arguments: [
    (
      #"{"users":[{"email":"a@example.com"}]}"#,
      "users file users.json: users[0]: id: is missing; every account needs a fixed id (a UUID)"
    ),
    (
      #"{"users":[{"id":"u1","email":"not-an-address"}]}"#,
      "users file users.json: users[0] (u1): email: not-an-address is not an email address "
        + "(local@domain)"
    ),
    (
      #"{"users":[{"id":"u1","email":"a@example.com","password_hash":"$1$abc"}]}"#,
      "users file users.json: users[0] (u1): password_hash: is not a bcrypt hash ($2a$, $2b$ "
        + "or $2y$, 60 characters); give one, or a password"
    ),
    (
      #"{"users":[{"id":"u1","email":"a@example.com","password":"pw1234","password_hash":"x"}]}"#,
      "users file users.json: users[0] (u1): password_hash: is given beside password; give only "
        + "one"
    ),
    (
      #"{"users":[{"id":"u1","email":"a@example.com","emial_confirm":true}]}"#,
      "users file users.json: users[0] (u1): emial_confirm: is not a field of this format; the "
        + "fields are id, email, password, password_hash, encrypted_password, email_confirm, "
        + "phone, phone_confirm, user_metadata, app_metadata, role, display_name, photo_url, "
        + "custom_claims, disabled, anonymous, created_at"
    ),
    (
      #"{"users":[{"id":"u1","email":"a@example.com","email_confirm":"yes"}]}"#,
      "users file users.json: users[0] (u1): email_confirm: must be true or false"
    ),
    (
      #"{"users":[{"id":"u1","email":"a@example.com"},{"id":"u1","email":"b@example.com"}]}"#,
      "users file users.json: users[1] (u1): id: is also users[0]'s; each account needs its own id"
    ),
    (
      #"{"users":[{"id":"u1","email":"a@example.com"},{"id":"u2","email":"A@example.com"}]}"#,
      "users file users.json: users[1] (u2): email: a@example.com is also users[0]'s; each "
        + "account needs its own address"
    ),
    (
      #"{"users":[{"id":"u1","email":"a@example.com","custom_claims":{"sub":"x"}}]}"#,
      "users file users.json: users[0] (u1): custom_claims: are not custom claims Firebase "
        + "takes (FORBIDDEN_CLAIM : sub): a JSON object of at most 1000 characters naming no "
        + "reserved claim (sub, iss, aud, …)"
    ),
    (
      #"{"users":[{"id":"u1","anonymous":true,"email":"a@example.com"}]}"#,
      "users file users.json: users[0] (u1): anonymous: an anonymous account has no email; "
        + "remove one of them"
    ),
    (
      #"{"users":[{"id":"u1","anonymous":true,"phone":"+15555550100"}]}"#,
      "users file users.json: users[0] (u1): anonymous: an anonymous account has no phone; "
        + "remove one of them"
    ),
    (
      #"{"users":[{"id":"u1"}]}"#,
      "users file users.json: users[0] (u1): email: is missing; give an address, a phone "
        + "number, or \"anonymous\": true"
    ),
    (
      #"{"users":[{"id":"u1","phone":"555-0100"}]}"#,
      "users file users.json: users[0] (u1): phone: 555-0100 is not an E.164 phone number "
        + "(such as +15555550100)"
    ),
    (
      #"{"users":[{"id":"u1","email":"a@example.com","phone_confirm":true}]}"#,
      "users file users.json: users[0] (u1): phone_confirm: confirms no phone number; give "
        + "\"phone\" too"
    ),
    (
      #"{"users":[{"id":"u1","phone":"+15555550100"},{"id":"u2","phone":"15555550100"}]}"#,
      "users file users.json: users[1] (u2): phone: +15555550100 is also users[0]'s; each "
        + "account needs its own number"
    ),
    (
      #"{"accounts":[]}"#,
      "users file users.json: accounts: is not read; the file is {\"users\": [...]}"
    ),
    (
      #"{"users":[{"id":"u1",}]}"#,
      "users file users.json: is not JSON: invalid character '}' looking for beginning of value"
    ),
    (
      #"["a"]"#,
      "users file users.json: is not a JSON object; write {\"users\": [{\"id\": …}, …]}"
    ),
  ])
  func badAuthflowFileIsRefusedNamingEntryAndField(text: String, message: String) {
    #expect(refusal(text) == message)
  }

  @Test func refusalNeverShowsThePassword() {
    let message = refusal(
      #"{"users":[{"id":"u1","email":"a@example.com","password":"s3cret-\#(String(repeating: "x", count: 80))"}]}"#
    )
    #expect(message?.contains("password: must be 1 to 72 bytes") == true)
    #expect(message?.contains("s3cret") == false)
  }

  @Test func firebaseExportIsToldByItsShapeAndItsFakeHashesAreRead() throws {
    let accounts = try parse(
      """
      {"kind": "identitytoolkit#DownloadAccountResponse", "users": [
        {"localId": "Xy7fLQ2k", "email": "ada@example.com", "emailVerified": true,
         "displayName": "Ada", "photoUrl": "https://example.com/a.png",
         "passwordHash": "fakeHash:salt=fakeSaltAbc:password=pa:ss=word",
         "salt": "fakeSaltAbc", "passwordUpdatedAt": 1735689600000, "validSince": "1735689600",
         "disabled": false, "createdAt": "1735689600000", "lastLoginAt": "1735689700000",
         "lastRefreshAt": "2025-01-01T00:01:40.000Z",
         "customAttributes": "{\\"role\\":\\"editor\\"}",
         "providerUserInfo": [{"providerId": "password", "email": "ada@example.com",
           "federatedId": "ada@example.com", "rawId": "ada@example.com"}]},
        {"localId": "anon", "createdAt": "1735689600000", "lastLoginAt": "1735689600000"},
        {"localId": "raw", "email": "raw@example.com", "rawPassword": "hunter22"}]}
      """)
    var ada = SeedAccount(id: "Xy7fLQ2k", email: "ada@example.com")
    ada.password = .plain("pa:ss=word")
    ada.emailConfirmed = true
    ada.displayName = "Ada"
    ada.photoURL = "https://example.com/a.png"
    ada.customClaims = #"{"role":"editor"}"#
    ada.createdAt = 1_735_689_600_000
    ada.lastSignInAt = 1_735_689_700_000
    var anonymous = SeedAccount(id: "anon", email: nil)
    anonymous.createdAt = 1_735_689_600_000
    anonymous.lastSignInAt = 1_735_689_600_000
    var raw = SeedAccount(id: "raw", email: "raw@example.com")
    raw.password = .plain("hunter22")
    #expect(accounts == [ada, anonymous, raw])
  }

  @Test func firebaseRequestBodyWithLocalIDsIsReadAsFirebase() throws {
    let accounts = try parse(#"{"users":[{"localId":"a1","email":"a@example.com"}]}"#)
    #expect(accounts == [SeedAccount(id: "a1", email: "a@example.com")])
  }

  @Test(arguments: [
    (
      #"{"kind":"x","users":[]}"#,
      "users file users.json: kind: must be \"identitytoolkit#DownloadAccountResponse\", as "
        + "accounts.json has"
    ),
    (
      #"{"users":[{"localId":"a1","email":"a@example.com","passwordHash":"c2NyeXB0"}]}"#,
      "users file users.json: users[0] (a1): passwordHash: is neither the emulator's "
        + "fakeHash:salt=…:password=… nor a bcrypt hash; production exports' scrypt hashes "
        + "cannot be checked here: give rawPassword instead"
    ),
    (
      #"{"users":[{"localId":"a1","providerUserInfo":[{"providerId":"google.com","rawId":"1"}]}]}"#,
      "users file users.json: users[0] (a1): providerUserInfo[0]: provider google.com is not "
        + "kept: authflow's accounts sign in with an email and password or a phone number; "
        + "remove the entry to import the account without it"
    ),
    (
      #"{"users":[{"localId":"a1","phoneNumber":"5555550100"}]}"#,
      "users file users.json: users[0] (a1): phoneNumber: 5555550100 is not E.164: it starts "
        + "with +"
    ),
    (
      #"{"users":[{"localId":"a1","phoneNumber":"+0555"}]}"#,
      "users file users.json: users[0] (a1): phoneNumber: +0555 is not an E.164 phone number "
        + "(such as +15555550100)"
    ),
    (
      #"{"users":[{"localId":"a1","phoneNumber":"+15555550100"},{"localId":"a2","phoneNumber":"+1 555 555 0100"}]}"#,
      "users file users.json: users[1] (a2): phoneNumber: +15555550100 is also users[0]'s; "
        + "each account needs its own number"
    ),
    (
      #"{"users":[{"localId":"a1","mfaInfo":[{"phoneInfo":"+15555550100"}]}]}"#,
      "users file users.json: users[0] (a1): mfaInfo: is not kept: authflow keeps TOTP "
        + "factors, enrolled by the user; remove it to import"
    ),
    (
      #"{"users":[{"localId":"a1","customAttributes":"[1]"}]}"#,
      "users file users.json: users[0] (a1): customAttributes: are not custom claims Firebase "
        + "takes (INVALID_CLAIMS): a JSON object of at most 1000 characters naming no reserved "
        + "claim (sub, iss, aud, …)"
    ),
    (
      #"{"users":[{"localId":"a1","createdAt":"yesterday"}]}"#,
      "users file users.json: users[0] (a1): createdAt: must be Unix milliseconds, such as "
        + "\"1735689600000\""
    ),
  ])
  func badFirebaseFileIsRefusedNamingEntryAndField(text: String, message: String) {
    #expect(refusal(text) == message)
  }

  @Test(arguments: [
    (#"{"users":[{"id":"u1","email":"a@example.com","password_hash":"HASH"}]}"#, "password_hash"),
    (
      #"{"users":[{"id":"u1","email":"a@example.com","encrypted_password":"HASH"}]}"#,
      "encrypted_password"
    ),
    (
      #"{"users":[{"localId":"u1","email":"a@example.com","passwordHash":"HASH"}]}"#, "passwordHash"
    ),
  ])
  func hashAboveTheHighestCostIsRefusedInEachField(text: String, field: String) throws {
    let body = String(repeating: "a", count: 53)
    let slow = text.replacingOccurrences(of: "HASH", with: "$2b$31$" + body)
    #expect(
      refusal(slow)
        == "users file users.json: users[0] (u1): \(field): has bcrypt cost 31, above the "
        + "highest authflow checks at sign-in (14); rehash it at cost 14 or lower, or give a "
        + "password")
    #expect(refusal(text.replacingOccurrences(of: "HASH", with: "$2b$15$" + body)) != nil)
    let highest = text.replacingOccurrences(of: "HASH", with: "$2b$14$" + body)
    #expect(try parse(highest).first?.password == .bcrypt("$2b$14$" + body))
  }

  @Test func bcryptCheckTakesTheThreeVariantsOnly() {
    let body = String(repeating: "A", count: 53)
    #expect(SeedFields.isBcrypt("$2a$10$" + body))
    #expect(SeedFields.isBcrypt("$2b$04$" + body))
    #expect(SeedFields.isBcrypt("$2y$31$" + body))
    #expect(!SeedFields.isBcrypt("$2x$10$" + body))
    #expect(!SeedFields.isBcrypt("$2a$03$" + body))
    #expect(!SeedFields.isBcrypt("$2a$10$" + body.dropLast()))
    #expect(!SeedFields.isBcrypt("$2a$10$" + body.dropLast() + "!"))
  }
}
