import FirebaseEmulator
import Foundation
import GoTrue
import IdentityToolkit
import TestSupport
import Testing

/// `accounts:signInWithPassword`: the emulator's order of checks, with and without improved
/// email privacy.
struct FirebasePasswordSignInTests {
  private func code(
    _ emulation: FirebaseEmulation, _ email: String?, _ password: String?,
    unsupported: String? = nil
  ) async -> String? {
    await firebaseFailure {
      try await emulation.signIn(email: email, password: password, unsupported: unsupported)
        .signedIn()
    }?.message
  }

  @Test func theFieldsAreCheckedFirstInTheEmulatorsOrder() async throws {
    let off = try makeEmulation { $0.emailProvider = false }
    #expect(await code(off, nil, nil) == "PASSWORD_LOGIN_DISABLED")
    let emulation = try makeEmulation()
    #expect(await code(emulation, nil, nil) == "MISSING_EMAIL")
    #expect(await code(emulation, "", nil) == "INVALID_EMAIL", "an empty email is sent")
    #expect(await code(emulation, "no-at-sign", "") == "INVALID_EMAIL")
    #expect(await code(emulation, "test@example.com", "") == "MISSING_PASSWORD")
    #expect(
      await code(emulation, "test@example.com", "x", unsupported: "captcha unimplemented")
        == "captcha unimplemented")
    // The emulator's form is enough: an address GoTrue would refuse is simply not found.
    #expect(await code(emulation, "a@b", "secret123") == "EMAIL_NOT_FOUND")
  }

  @Test func aDisabledAccountIsSaidSoWhateverThePasswordWithPrivacyOrWithout() async throws {
    let emulation = try makeEmulation()
    let test = try #require(try emulation.accounts(ids: [], emails: ["test@example.com"]).first)
    var disable = FirebaseAccountChanges()
    disable.disabled = true
    _ = try await emulation.update(id: test.id, disable)
    for privacy in [false, true] {
      emulation.improvedEmailPrivacy = privacy
      let hidden = privacy ? "INVALID_LOGIN_CREDENTIALS" : nil
      #expect(await code(emulation, "nobody@example.com", "x") == hidden ?? "EMAIL_NOT_FOUND")
      #expect(await code(emulation, "TEST@example.com", "wrong-password") == "USER_DISABLED")
      #expect(await code(emulation, "test@example.com", "TestPassword123!") == "USER_DISABLED")
      #expect(
        await code(emulation, "unverified@example.com", "wrong") == hidden ?? "INVALID_PASSWORD")
    }
  }
}
