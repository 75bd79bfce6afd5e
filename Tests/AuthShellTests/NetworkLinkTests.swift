import AuthFlow
import Testing

@testable import AuthShell

/// `network unreachable`: the shell's link is up until cut, and knows, as the phone does, which
/// of its emails a link came in. (That the view model sends every request over its link, and
/// what a cut link does to each, is in AuthFlowTests' LinkTests.)
struct NetworkLinkTests {
  /// An inbox holding the given emails.
  struct Inbox: ShellMailbox {
    var emails: [MailItem]
    func items() -> [MailItem] { emails }
    func newest(to recipient: String, type: String?) -> MailItem? {
      emails.last { $0.recipient == recipient }
    }
  }

  static func email(to recipient: String, link: String?) -> MailItem {
    MailItem(id: "1", recipient: recipient, subject: "Confirm", link: link)
  }

  @Test func itIsUpUntilCut() {
    let link = NetworkLink()
    #expect(link.isUp)
    link.isUp = false
    #expect(!link.isUp)
    link.isUp = true
    #expect(link.isUp)
  }

  @Test func aLinksRecipientIsTheNewestEmailCarryingItsCode() async {
    let inbox = Inbox(emails: [
      Self.email(to: "old@example.com", link: "authflow://auth/verify?token=abc&type=signup"),
      Self.email(to: "other@example.com", link: "authflow://auth/verify?token=xyz&type=signup"),
      Self.email(to: "no-link@example.com", link: nil),
      Self.email(
        to: "new@example.com", link: "authflow://auth/forgot-password?token=abc&type=recovery"),
    ])
    let link = NetworkLink(mailbox: inbox)
    #expect(await link.recipient(ofLinkCode: "abc") == "new@example.com")
    #expect(await link.recipient(ofLinkCode: "xyz") == "other@example.com")
    #expect(await link.recipient(ofLinkCode: "unknown") == nil)
    #expect(await NetworkLink().recipient(ofLinkCode: "abc") == nil, "no inbox, no answer")
  }
}
