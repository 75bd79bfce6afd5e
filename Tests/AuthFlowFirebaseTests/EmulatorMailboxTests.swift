import AuthFlowFirebase
import Foundation
import HTTPClient
import TestSupport
import Testing

/// The emulator's list of codes as the shell's mailbox.
struct EmulatorMailboxTests {
  private let list = """
    {"oobCodes":[
    {"email":"newuser@example.com","requestType":"VERIFY_EMAIL","oobCode":"V1",
     "oobLink":"http://127.0.0.1:9099/emulator/action?mode=verifyEmail&lang=en&oobCode=V1&apiKey=fake-api-key"},
    {"email":"test@example.com","requestType":"PASSWORD_RESET","oobCode":"R1",
     "oobLink":"http://127.0.0.1:9099/emulator/action?mode=resetPassword&lang=en&oobCode=R1&apiKey=fake-api-key"},
    {"email":"test@example.com","requestType":"VERIFY_EMAIL","oobCode":"V2",
     "oobLink":"http://127.0.0.1:9099/emulator/action?mode=verifyEmail&lang=en&oobCode=V2&apiKey=fake-api-key"},
    {"email":"test@example.com","newEmail":"new@example.com","requestType":"RECOVER_EMAIL",
     "oobCode":"C1","oobLink":"http://127.0.0.1:9099/emulator/action?mode=recoverEmail&oobCode=C1"}
    ]}
    """

  private func mailbox(_ replies: ReplayTransport.Reply...) throws -> FirebaseEmulatorMailbox {
    let transport = ReplayTransport()
    for reply in replies { transport.then(reply) }
    return try FirebaseEmulatorMailbox(project: emulatorProject, transport: transport)
  }

  @Test func everyCodeIsAMessageWithItsLink() async throws {
    let messages = try await mailbox(ok(list)).messages()
    #expect(messages.map(\.id) == ["1", "2", "3", "4"])
    #expect(
      messages.map(\.subject) == [
        "Verify your email", "Reset your password", "Verify your email",
        "Your sign-in email was changed",
      ])
    #expect(messages.map(\.type) == ["signup", "recovery", "signup", "recover_email"])
    #expect(messages.allSatisfy { $0.code == nil })
    #expect(messages[1].recipient == "test@example.com")
    #expect(messages[1].requestType == "PASSWORD_RESET")
    #expect(
      messages[1].link
        == "http://127.0.0.1:9099/emulator/action?mode=resetPassword&lang=en&oobCode=R1&apiKey=fake-api-key"
    )
  }

  @Test func newestByRecipientAndType() async throws {
    let newest = try await mailbox(ok(list)).newest(to: "TEST@example.com", type: "recovery")
    #expect(newest?.link?.contains("oobCode=R1") == true)
    #expect(try await mailbox(ok(list)).newest(to: "test@example.com")?.id == "4")
    #expect(try await mailbox(ok(list)).newest(to: "test@example.com", type: "signup")?.id == "3")
    #expect(try await mailbox(ok(list)).newest(to: "nobody@example.com") == nil)
  }

  @Test func anEmptyListIsNoMail() async throws {
    #expect(try await mailbox(ok(#"{"oobCodes":[]}"#)).messages().isEmpty)
  }

  @Test func onlyAnEmulatorHasOne() {
    #expect(
      throws: EmulatorMailboxFailure(
        description:
          "the mail commands need the Firebase Auth emulator (--firebase-emulator HOST:PORT); "
          + "Google sends real emails")
    ) {
      try FirebaseEmulatorMailbox(project: testProject, transport: ReplayTransport())
    }
  }

  @Test func failuresAreOneLine() async throws {
    let url = "http://127.0.0.1:9099/emulator/v1/projects/demo-project/oobCodes"
    let cases: [(ReplayTransport.Reply, String)] = [
      (
        .failure(.unreachable("Connection refused")),
        "the emulator's codes at \(url) could not be read: the server could not be reached: "
          + "Connection refused"
      ),
      (
        .response(HTTPResponse(status: 404)),
        "the emulator answered 404 for \(url); is it a Firebase Auth emulator?"
      ),
      (ok("<html>"), "the emulator answered \(url) with something that is not its list of codes"),
    ]
    for (reply, message) in cases {
      await #expect(throws: EmulatorMailboxFailure(description: message)) {
        try await mailbox(reply).messages()
      }
    }
  }
}
