import IdentityToolkit

/// A Firebase project to sign in against: its Web API key, its project id, and optionally the
/// Auth emulator that stands in for Google's servers.
public struct FirebaseProject: Equatable, Sendable {
  /// The Web API key, sent as `?key=` (the emulator takes any non-empty key).
  public let apiKey: String
  /// The project id, e.g. `clarity-pulse`.
  public let projectID: String
  /// The Auth emulator's `HOST:PORT` (as `FIREBASE_AUTH_EMULATOR_HOST`), or `nil` for Google.
  public let emulatorHost: String?
  /// Seconds to wait for an answer.
  public let timeout: Double

  /// The emulator's own root, `http://HOST:PORT`, or `nil` for Google.
  public var emulatorURL: String? { emulatorHost.map { "http://\($0)" } }

  /// Where `operation` is sent: Google's host, or the emulator with the host as a path part
  /// (as `Auth.auth().useEmulator` does), the project id in place.
  public func url(of operation: IdentityToolkitOperation) -> String {
    let path = operation.path(project: projectID)
    return operation.host.isEmpty ? (emulatorURL ?? "") + path : base(operation.host) + path
  }

  /// A short name for prompts, as `SupabaseProject.name` is: the project id, with
  /// `@HOST:PORT` for an emulator (`demo-project@127.0.0.1:9099`). The shell shows it as
  /// `firebase:<name>`.
  public var name: String { emulatorHost.map { "\(projectID)@\($0)" } ?? projectID }

  /// The identity of the project's saved session (`firebase:<name>`): an emulator's sessions
  /// are never offered to Google, nor one project's to another.
  public var sessionIdentity: String { "firebase:" + name }

  /// A checked project. Errors are one line, name the option to fix and never repeat the key.
  public init(apiKey: String, projectID: String, emulatorHost: String? = nil, timeout: Double = 10)
    throws(FirebaseProjectError)
  {
    let key = trimmed(apiKey)
    guard !key.isEmpty else { throw .missingKey }
    guard key.utf8.count <= 200, key.utf8.allSatisfy(Self.isKeyByte) else { throw .badKey }
    let id = trimmed(projectID)
    guard !id.isEmpty else { throw .missingProject }
    guard Self.isProjectID(id) else { throw .badProject(id) }
    var host: String?
    if let emulatorHost, !trimmed(emulatorHost).isEmpty {
      host = try Self.checkedEmulatorHost(trimmed(emulatorHost))
    }
    guard timeout > 0, timeout <= 300 else { throw .badTimeout }
    self.apiKey = key
    self.projectID = id
    self.emulatorHost = host
    self.timeout = timeout
  }

  private func base(_ googleHost: String) -> String {
    emulatorURL.map { "\($0)/\(googleHost)" } ?? "https://\(googleHost)"
  }

  /// Letters, digits and `-._~`: what a key may hold and still go into a query unescaped.
  private static func isKeyByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
      UInt8(ascii: "_"), UInt8(ascii: "~"):
      true
    default: false
    }
  }

  /// Google's rule, roughly: 4 to 40 of lowercase letters, digits and hyphens, starting with a
  /// letter and not ending with a hyphen (`demo-project`, `clarity-pulse-1a2b3`).
  static func isProjectID(_ id: String) -> Bool {
    let bytes = Array(id.utf8)
    guard (4...40).contains(bytes.count), let first = bytes.first, let last = bytes.last,
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first), last != UInt8(ascii: "-")
    else { return false }
    return bytes.allSatisfy { byte in
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
    }
  }

  /// `HOST:PORT` as `FIREBASE_AUTH_EMULATOR_HOST` holds it: a name or IPv4 address, or an IPv6
  /// address in brackets, then a port from 1 to 65535; no scheme, path or user.
  static func checkedEmulatorHost(_ text: String) throws(FirebaseProjectError) -> String {
    if text.contains("://") { throw .badEmulatorHost(text, "leave out the scheme") }
    guard let colon = text.lastIndex(of: ":") else {
      throw .badEmulatorHost(text, "it has no port")
    }
    let host = text[..<colon]
    let port = text[text.index(after: colon)...]
    guard let number = Int(port), (1...65_535).contains(number), port.first != "+" else {
      throw .badEmulatorHost(text, "the port is not a number from 1 to 65535")
    }
    let valid: Bool
    if host.hasPrefix("[") {
      let inner = host.dropFirst()
      valid =
        inner.hasSuffix("]") && inner.count > 2 && inner.contains(":")
        && inner.dropLast().allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
    } else {
      valid =
        !host.isEmpty && !host.hasPrefix("-") && !host.hasPrefix(".")
        && host.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }
    }
    guard valid else {
      let reason =
        host.hasPrefix("[")
        ? "the address in brackets is not IPv6"
        : host.contains(":") ? "put an IPv6 address in brackets" : "the host is not a name"
      throw .badEmulatorHost(text, reason)
    }
    return "\(host):\(number)"
  }
}

/// What is wrong with a Firebase project's settings.
public enum FirebaseProjectError: Error, Equatable, Sendable, CustomStringConvertible {
  /// No API key was given.
  case missingKey
  /// The API key holds characters no key has.
  case badKey
  /// No project id was given.
  case missingProject
  /// The project id breaks Google's rule.
  case badProject(String)
  /// The emulator host is not `HOST:PORT`; the text given and why.
  case badEmulatorHost(String, String)
  /// The timeout is not between 0 and 300 seconds.
  case badTimeout

  /// One line saying what is wrong and what would be right (never the key itself).
  public var description: String {
    switch self {
    case .missingKey:
      "the Firebase API key is missing; set FIREBASE_API_KEY or pass --firebase-key"
    case .badKey:
      "--firebase-key does not look like a Web API key (letters, digits and -._~, such as AIza…)"
    case .missingProject:
      "the Firebase project id is missing; set FIREBASE_PROJECT_ID or pass --firebase-project"
    case .badProject(let id):
      "--firebase-project '\(visible(id))' is not a project id: 4 to 40 lowercase letters, "
        + "digits and hyphens, starting with a letter"
    case .badEmulatorHost(let text, let reason):
      "--firebase-emulator '\(visible(text))' is not HOST:PORT (\(reason)); expected such as "
        + "127.0.0.1:9099 or [::1]:9099, as FIREBASE_AUTH_EMULATOR_HOST"
    case .badTimeout:
      "--timeout takes seconds from 1 to 300"
    }
  }
}

/// `text` without leading and trailing whitespace.
private func trimmed(_ text: String) -> String {
  String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
}

/// `text` shortened to 60 characters with control characters shown as `?`, for messages.
private func visible(_ text: String) -> String {
  let shown = String(
    text.unicodeScalars.prefix(60).map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) }
  )
  return text.unicodeScalars.count > 60 ? shown + "…" : shown
}
