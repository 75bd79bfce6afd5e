import Clocks
import Foundation
import GoTrue
import TestSupport
import Testing

@testable import GoTrueEngine

/// The admin API keeps phone numbers as GoTrue does, whether or not the phone provider is on:
/// E.164 digits without the `+`, unique, a phone identity beside the email one, confirmed at
/// once with `phone_confirm`.
struct AdminPhoneTests {
  let clock = AdjustableClock(fixedAt: testEpoch)

  @Test func aUserIsMadeWithAPhoneAloneOrBesideAnEmail() async throws {
    let engine = try makeEngine(clock: clock)
    let phoneOnly = try await engine.createUser(
      GoTrueAdminUserAttributes(phone: "+1 555 555 0100", phoneConfirm: true))
    #expect(phoneOnly.phone == "15555550100" && phoneOnly.email == "")
    #expect(phoneOnly.phoneConfirmedAt == testEpoch && phoneOnly.confirmedAt == testEpoch)
    #expect(phoneOnly.appMetadata["provider"] == .string("phone"))
    #expect(phoneOnly.identities?.map(\.provider) == ["phone"])
    #expect(phoneOnly.identities?.first?.identityData?["phone"] == .string("15555550100"))
    #expect(phoneOnly.identities?.first?.identityData?["phone_verified"] == .bool(true))

    let both = try await engine.createUser(
      GoTrueAdminUserAttributes(email: "ada@example.com", phone: "15555550101"))
    #expect(both.phone == "15555550101" && both.phoneConfirmedAt == nil)
    #expect(both.appMetadata["providers"] == .array([.string("email"), .string("phone")]))
    #expect(both.identities?.map(\.provider) == ["email", "phone"])

    let taken = await failure {
      try await engine.createUser(GoTrueAdminUserAttributes(phone: "+15555550100"))
    }
    #expect(taken?.apiError?.code == .phoneExists)
    #expect(taken?.apiError?.message == "Phone number already registered by another user")
    #expect(try engine.user(id: phoneOnly.id).phone == "15555550100", "read back from the store")
  }

  @Test func anAdminSetsChangesAndConfirmsAUsersPhone() async throws {
    let engine = try makeEngine(clock: clock)
    let user = try await engine.createUser(GoTrueAdminUserAttributes(email: "grace@example.com"))
    let added = try await engine.updateUser(
      id: user.id, GoTrueAdminUserAttributes(phone: "+44 20 7946 0000"))
    #expect(added.phone == "442079460000" && added.phoneConfirmedAt == nil)
    #expect(added.identities?.map(\.provider) == ["email", "phone"])
    let confirmed = try await engine.updateUser(
      id: user.id, GoTrueAdminUserAttributes(phoneConfirm: true))
    #expect(confirmed.phoneConfirmedAt == testEpoch)
    let other = try await engine.createUser(GoTrueAdminUserAttributes(phone: "15555550102"))
    let refused = await failure {
      try await engine.updateUser(id: other.id, GoTrueAdminUserAttributes(phone: "442079460000"))
    }
    #expect(refused?.apiError?.code == .phoneExists)
    let malformed = await failure {
      try await engine.updateUser(id: user.id, GoTrueAdminUserAttributes(phone: "call me"))
    }
    #expect(malformed?.apiError?.message == "Invalid phone number format (E.164 required)")
    #expect(try engine.user(id: user.id).phone == "442079460000", "unchanged by the refusals")
  }
}
