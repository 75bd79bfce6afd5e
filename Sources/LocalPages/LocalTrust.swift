import GoTrue
import HTTPServer

/// Who may use a server's privileged surfaces: serve's outbox (codes and links), the Firebase
/// emulator's own routes, `Authorization: Bearer owner` and its page, and the shell's presented
/// screen. Only this machine, and only by a request no web page could have sent or steered.
///
/// The TCP peer alone proves little: a browser's request comes from loopback too. So a
/// privileged request also needs a `Host` naming this server by a loopback name or address
/// (or the host of `--external-url`), which a DNS-rebinding page cannot send, and, when it
/// carries an `Origin`, a loopback one (or the external URL's): a page of another site neither
/// reaches these routes nor gets CORS or Private Network Access grants for them. Clients that
/// are not browsers (the shell, firebase-admin, supabase clients, curl) send no `Origin`.
public struct LocalTrust: Sendable {
  /// Hosts besides the loopback ones that name this server (the external URL's).
  public let ownHosts: Set<String>

  /// Trusts loopback names and addresses, and the host of each of `urls`.
  public init(alsoNaming urls: [String] = []) {
    ownHosts = Set(urls.compactMap { BrowserURL($0)?.host })
  }

  /// Why `request` may not use a privileged route, or `nil` when it may.
  public func refusal(_ request: HTTPRequest) -> Refusal? {
    guard Self.isLoopbackPeer(request.peer) else { return .peer }
    if let host = request.header("Host"), !isOwn(BrowserURL("http://" + host)) { return .host }
    if origin(of: request) == .foreign { return .origin }
    return nil
  }

  /// What kind of page sent `request`, from its `Origin`.
  public func origin(of request: HTTPRequest) -> OriginKind {
    guard let origin = request.header("Origin") else { return .none }
    return isOwn(BrowserURL(origin)) ? .local : .foreign
  }

  /// Whether a browser at `origin` counts as this machine's: loopback or the external URL.
  private func isOwn(_ url: BrowserURL?) -> Bool {
    guard let url else { return false }
    return url.isLoopback || ownHosts.contains(url.host)
  }

  /// Whether a connection's peer (`127.0.0.1:54321`, `[::1]:54321`) is this machine; an empty
  /// peer is a request made in-process (tests).
  public static func isLoopbackPeer(_ peer: String) -> Bool {
    peer.hasPrefix("127.") || peer.hasPrefix("[::1]") || peer.isEmpty
  }

  /// Who sent a request, as its `Origin` says.
  public enum OriginKind: Equatable, Sendable {
    /// No `Origin`: not a cross-origin browser request.
    case none
    /// A page on this machine (or the external URL).
    case local
    /// A page of another site, or an opaque (`null`) origin.
    case foreign
  }

  /// Why a privileged route refused a request.
  public enum Refusal: Equatable, Sendable {
    /// The peer is not this machine.
    case peer
    /// The `Host` names another host.
    case host
    /// The `Origin` is another site's.
    case origin

    /// The one-line reason, after what was refused (`the outbox`).
    public func reason(_ surface: String) -> String {
      switch self {
      case .peer: "\(surface) answers only this machine (a loopback connection)"
      case .host:
        "\(surface) answers only requests addressed to this server as 127.0.0.1, localhost, "
          + "[::1] or its --external-url (the Host header named another host)"
      case .origin:
        "\(surface) answers no web page of another site (the Origin header was not a "
          + "loopback one)"
      }
    }
  }
}
