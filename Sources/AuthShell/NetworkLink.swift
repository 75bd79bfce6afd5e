import AuthFlow
import Synchronization

/// The connection between the app and its backend, which the shell can cut (`network
/// unreachable`): the device still reports a network, so the app makes its requests, and each
/// fails as a request fails when the server cannot be reached (Wi-Fi without internet, the
/// server down). `network offline` is the other case: the app knows, and asks nothing.
///
/// The view model sends every request through its link in one place, so the link cuts them all
/// without passing each of the service's calls on: a call the service gains is cut with the rest.
final class NetworkLink: AuthLink {
  private let cut = Atomic<Bool>(false)
  /// The inbox the device reads, where a link the backend cannot place was delivered.
  private let mailbox: (any ShellMailbox)?

  /// A link, up; `mailbox` is the inbox the shell's links come from.
  init(mailbox: (any ShellMailbox)? = nil) {
    self.mailbox = mailbox
  }

  /// Whether requests reach the backend.
  var isUp: Bool {
    get { !cut.load(ordering: .relaxed) }
    set { cut.store(!newValue, ordering: .relaxed) }
  }

  /// The address of the email in the inbox whose link carries `code`, asked when the backend
  /// cannot tell (GoTrue's API): the phone knows which of its emails a link came from.
  func recipient(ofLinkCode code: String) async -> String? {
    guard let items = try? await mailbox?.items() else { return nil }
    return items.last { item in
      switch item.link.flatMap({ try? AuthDeepLink(parsing: $0) }) {
      case .confirmation(_, let linked)?, .recovery(_, let linked)?: linked == code
      case .signedIn?, .refused?, nil: false
      }
    }?.recipient
  }
}
