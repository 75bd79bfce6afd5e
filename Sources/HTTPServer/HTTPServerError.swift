import Glibc

/// Why the server could not start. Each ``description`` is one line that says what was wrong
/// and what would be right, ready to show to whoever started the server.
public enum HTTPServerError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Another socket already listens on this port and host.
  case portInUse(host: String, port: UInt16)
  /// Binding or listening failed for another reason; `reason` is the system's error text.
  case cannotListen(host: String, port: UInt16, reason: String)
  /// A host that is not a numeric IPv4 or IPv6 address.
  case notNumericAddress(String)
  /// The configuration lists no host at all.
  case noHosts
  /// A limit in the configuration is out of range.
  case invalidConfiguration(setting: String, expected: String)
  /// libevent could not set something up; the text names what.
  case libevent(String)

  /// One line: what was wrong, and what would be right.
  public var description: String {
    switch self {
    case .portInUse(let host, let port):
      "port \(port) on \(host) is in use; stop the other server or pass --port with another"
        + " port (0 picks a free one)"
    case .cannotListen(let host, let port, let reason):
      "cannot listen on \(Self.address(host, port)): \(reason); "
        + Self.advice(reason: reason, host: host)
    case .notNumericAddress(let host):
      "\(host) is not a numeric address; pass an IP such as 127.0.0.1 or ::1"
    case .noHosts:
      "no address to listen on; pass at least one, such as 127.0.0.1"
    case .invalidConfiguration(let setting, let expected):
      "\(setting) is out of range; it must be \(expected)"
    case .libevent(let what):
      "libevent could not \(what); check free memory and the open-file limit (ulimit -n)"
    }
  }

  /// The error for a failed bind or listen, from `errno`.
  static func listenFailure(host: String, port: UInt16, errno code: Int32) -> HTTPServerError {
    if code == EADDRINUSE { return .portInUse(host: host, port: port) }
    return .cannotListen(host: host, port: port, reason: String(cString: strerror(code)))
  }

  private static func address(_ host: String, _ port: UInt16) -> String {
    host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
  }

  private static func advice(reason: String, host: String) -> String {
    switch reason {
    case String(cString: strerror(EACCES)):
      "ports below 1024 need privileges; pass --port 1024 or above (0 picks a free one)"
    case String(cString: strerror(EADDRNOTAVAIL)), String(cString: strerror(EAFNOSUPPORT)):
      "\(host) is not an address of this machine; pass one it has, such as 127.0.0.1"
    default:
      "check that \(host) is an address of this machine and the port is free"
    }
  }
}
