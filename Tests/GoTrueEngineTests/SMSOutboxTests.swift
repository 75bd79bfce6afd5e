import Foundation
import Testing

@testable import GoTrueEngine

/// The SMS outbox: what the server would have texted, kept in memory, numbered with the emails.
struct SMSOutboxTests {
  @Test func messagesAreNumberedWithTheEmailsAndFoundByNumber() {
    let numbers = MessageNumbers()
    let emails = Outbox(numbers: numbers)
    let texts = SMSOutbox(numbers: numbers)
    let date = Date(timeIntervalSince1970: 1_735_689_600)
    emails.deliver(
      PendingEmail(recipient: "ada@example.com", kind: .recovery, code: "111111", link: ""),
      from: EmailAddress(name: "authflow", address: "noreply@authflow.local"), at: date)
    let first = texts.send(to: "+1 555 555 0100", code: "222222", kind: .otp, at: date)
    let second = texts.send(
      to: "15555550100", code: "333333", kind: .verificationCode, body: "Code: 333333", at: date)
    #expect(emails.messages.map(\.id) == [1])
    #expect(first.id == 2 && second.id == 3)
    #expect(first.recipient == "+15555550100" && first.body == "Your code is 222222")
    #expect(second.body == "Code: 333333")
    #expect(texts.newest(to: "15555550100")?.id == 3)
    #expect(texts.newest(to: "+15555550100", kind: .otp)?.code == "222222")
    #expect(texts.newest(to: "+15555550199") == nil)
  }

  @Test func openingMarksReadAndDeletingTouchesTheSignal() {
    let texts = SMSOutbox()
    let before = texts.changes.version
    let sent = texts.send(to: "+15555550100", code: "123456", kind: .phoneChange)
    #expect(texts.changes.version == before + 1)
    #expect(texts.message(id: sent.id)?.read == false)
    #expect(texts.open(id: sent.id)?.read == true)
    #expect(texts.message(id: sent.id)?.read == true)
    #expect(texts.open(id: 99) == nil)
    texts.delete(ids: [sent.id])
    #expect(texts.messages.isEmpty && texts.changes.version == before + 2)
  }

  @Test func onlyTheNewestAreKept() {
    let texts = SMSOutbox(capacity: 2)
    for code in ["111111", "222222", "333333"] {
      texts.send(to: "+15555550100", code: code, kind: .otp)
    }
    #expect(texts.messages.map(\.code) == ["222222", "333333"])
    texts.delete()
    #expect(texts.messages.isEmpty)
  }

  @Test func templatesTakeTheCodeWithOrWithoutSpaces() {
    #expect(SMSOutbox.text("Your code is {{ .Code }}", code: "1") == "Your code is 1")
    #expect(SMSOutbox.text("{{.Code}} is it", code: "2") == "2 is it")
    #expect(SMSMessage.Kind.otp.verificationType == "sms")
    #expect(!SMSMessage.Kind.allCases.map(\.subject).contains { $0.contains("{{") })
  }
}
