import CEvent
import Glibc

/// The listening sockets of one server: every host on one port.
struct Listeners {
  /// The `evconnlistener`s, one per host that was bound.
  var sockets: [OpaquePointer]
  /// The port they share (the chosen one when the configuration asked for 0).
  var port: UInt16
  /// `host:port` for each bound host, IPv6 in brackets.
  var addresses: [String]

  /// The accept queue per socket; the connection cap, not this, limits clients.
  private static let backlog: Int32 = 1024
  /// How often port 0 is retried when the free port of the first host is taken on another.
  private static let attempts = 5

  /// Binds every host of the configuration, or throws the first failure (after freeing what
  /// was bound). Only numeric addresses are accepted: binding goes through `inet_pton`, never
  /// `getaddrinfo`, which a static executable cannot use.
  static func bind(
    _ configuration: HTTPServerConfiguration, on base: OpaquePointer
  ) throws(HTTPServerError) -> Listeners {
    if let host = configuration.hosts.first(where: { cevent_is_numeric_address($0) == 0 }) {
      throw .notNumericAddress(host)
    }
    var attempt = 1
    while true {
      do {
        return try bindOnce(configuration, on: base)
      } catch .portInUse where configuration.port == 0 && attempt < attempts {
        // NB: the port the kernel picked for the first host was taken on a later one.
        attempt += 1
      }
    }
  }

  private static func bindOnce(
    _ configuration: HTTPServerConfiguration, on base: OpaquePointer
  ) throws(HTTPServerError) -> Listeners {
    var port = configuration.port
    var bound: [(host: String, socket: OpaquePointer)] = []
    for host in configuration.hosts {
      if let socket = cevent_listen_numeric(base, host, port, backlog) {
        if port == 0 { port = UInt16(clamping: cevent_listener_port(socket)) }
        bound.append((host, socket))
        continue
      }
      let code = errno
      if mayBeSkipped(host, errno: code, configuration) { continue }
      bound.forEach { evconnlistener_free($0.socket) }
      throw .listenFailure(host: host, port: port, errno: code)
    }
    return Listeners(
      sockets: bound.map(\.socket), port: port,
      addresses: bound.map { $0.host.contains(":") ? "[\($0.host)]:\(port)" : "\($0.host):\(port)" }
    )
  }

  /// `::1` is left out on a machine without IPv6, but only when the hosts are the defaults:
  /// an address someone chose must bind or fail loudly.
  private static func mayBeSkipped(
    _ host: String, errno code: Int32, _ configuration: HTTPServerConfiguration
  ) -> Bool {
    configuration.hosts == HTTPServerConfiguration.defaultHosts && host == "::1"
      && (code == EADDRNOTAVAIL || code == EAFNOSUPPORT)
  }
}
