import Clocks
import Foundation
import GoTrue
import TestSupport
import Testing

@testable import GoTrueEngine

/// `POST /invite` and the kinds of `POST /admin/generate_link`.
struct InviteTests {
  let clock = AdjustableClock(fixedAt: testEpoch)

  @Test func anInvitationMakesAWaitingUserWhoseLinkConfirmsAndSignsIn() async throws {
    let engine = try makeEngine(clock: clock) {
      $0.emailLinks = .server(externalURL: "http://127.0.0.1:9999")
    }
    let invited = try await engine.invite(
      email: "Guest@Example.com", data: ["team": .string("blue")], redirectTo: nil)
    #expect(invited.email == "guest@example.com")
    #expect(invited.invitedAt == testEpoch)
    #expect(invited.confirmationSentAt == testEpoch)
    #expect(invited.emailConfirmedAt == nil)
    // The data is the metadata, as GoTrue keeps it (no identity claims merged in, as /signup
    // merges them); the identity carries the claims.
    #expect(invited.userMetadata == ["team": .string("blue")])
    #expect(invited.identities?.first?.identityData?["email"] == .string("guest@example.com"))
    let message = try #require(engine.outbox.newest(to: "guest@example.com"))
    #expect(message.kind == .invite)
    #expect(message.subject == "You've been invited")
    #expect(message.link.contains("type=invite"))

    // Invitations wait on no gap: a second one at once is sent.
    _ = try await engine.invite(email: "guest@example.com", data: [:], redirectTo: nil)
    let code = try #require(engine.outbox.newest(to: "guest@example.com")).code
    let session = try await engine.verify(type: .invite, email: "guest@example.com", token: code)
    #expect(session.user.id == invited.id)
    #expect(session.user.emailConfirmedAt == testEpoch)

    let taken = await failure {
      try await engine.invite(email: "guest@example.com", data: [:], redirectTo: nil)
    }
    #expect(
      taken?.apiError
        == GoTrueAPIError(
          status: 422, code: .emailExists,
          message: "A user with this email address has already been registered"))
  }

  @Test func generatedLinksSayTheTypeGoTrueSays() async throws {
    let engine = try makeEngine(clock: clock)
    func link(_ type: String, _ email: String, newEmail: String? = nil) async throws
      -> GeneratedLink
    {
      try await engine.generateLink(
        type: type, email: email, password: type == "signup" ? "secret123" : nil, data: [:],
        newEmail: newEmail, redirectTo: nil)
    }
    // A magic link for someone still waiting is still a magic link (its use confirms them).
    let waiting = try await link("magiclink", "unverified@example.com")
    #expect(waiting.verificationType == "magiclink")
    _ = try await engine.verify(
      type: .magiclink, email: "unverified@example.com", token: waiting.code)
    let signup = try await engine.generateLink(
      type: "signup", email: "alpha@example.com", password: "secret123",
      data: ["status": .string("alpha")], newEmail: nil, redirectTo: nil)
    #expect(signup.user.userMetadata == ["status": .string("alpha")])
    #expect(try await link("magiclink", "new@example.com").verificationType == "signup")
    let invite = try await link("invite", "guest@example.com")
    #expect(invite.verificationType == "invite")
    #expect(invite.user.invitedAt == testEpoch)
    #expect(engine.outbox.messages.isEmpty, "generated links are sent nowhere")

    let current = try await link(
      "email_change_current", "test@example.com", newEmail: "a@example.com")
    #expect(current.verificationType == "email_change_current")
    #expect(current.actionLink.contains("type=email_change"))
    let new = try await link("email_change_new", "test@example.com", newEmail: "a@example.com")
    #expect(new.verificationType == "email_change_new")
  }
}
