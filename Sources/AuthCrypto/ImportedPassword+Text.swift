/// The text an imported hash is stored as (``ImportedPassword``'s two forms), and read back.
extension ImportedPassword {
  /// The prefix of the form this project writes for every scheme but Firebase's scrypt.
  static let importPrefix = "$fbimport$"
  /// GoTrue's prefix for Firebase's modified scrypt.
  static let firebaseScryptPrefix = "$fbscrypt$"

  /// Whether `text` is in one of the imported forms (and so not bcrypt's).
  public static func isImported(_ text: String) -> Bool {
    text.hasPrefix(importPrefix) || text.hasPrefix(firebaseScryptPrefix)
  }

  /// The stored form.
  public var text: String {
    switch scheme {
    case .firebaseScrypt(let signerKey, let separator, let rounds, let memoryCost):
      let parameters =
        "v=1,n=\(memoryCost),r=\(rounds),p=1,ss=\(Self.base64(separator)),"
        + "sk=\(Self.base64(signerKey))"
      return Self.firebaseScryptPrefix + parameters + "$" + Self.base64(salt) + "$"
        + Self.base64(hash)
    default:
      let parameters = ["v=1", "alg=\(algorithmName)"] + parameterPairs
      return Self.importPrefix + parameters.joined(separator: ",") + "$"
        + Base64URL.encode(salt) + "$" + Base64URL.encode(hash)
    }
  }

  /// Firebase's name for the scheme (`HMAC_SHA256`, `PBKDF2_SHA256`, `STANDARD_SCRYPT`).
  public var algorithmName: String {
    switch scheme {
    case .digest(let digest, _, _): digest.rawValue
    case .hmac(let digest, _, _): "HMAC_" + digest.rawValue
    case .pbkdf2(let digest, _): digest == .sha1 ? "PBKDF_SHA1" : "PBKDF2_" + digest.rawValue
    case .scrypt: "STANDARD_SCRYPT"
    case .firebaseScrypt: "SCRYPT"
    }
  }

  private var parameterPairs: [String] {
    switch scheme {
    case .digest(_, let rounds, let order): ["rounds=\(rounds)", "order=\(order.rawValue)"]
    case .hmac(_, let key, let order): ["order=\(order.rawValue)", "key=\(Base64URL.encode(key))"]
    case .pbkdf2(_, let iterations): ["rounds=\(iterations)"]
    case .scrypt(let n, let r, let p): ["n=\(n)", "r=\(r)", "p=\(p)"]
    case .firebaseScrypt: []
    }
  }

  /// The hash stored as `text`, or `nil` when `text` is in neither form.
  public init?(text: String) {
    let parts = text.split(separator: "$", omittingEmptySubsequences: false)
    guard parts.count == 5, parts[0].isEmpty, parts[2].hasPrefix("v=1,") else { return nil }
    var fields: [Substring: Substring] = [:]
    for pair in parts[2].split(separator: ",") {
      guard let equals = pair.firstIndex(of: "=") else { return nil }
      fields[pair[..<equals]] = pair[pair.index(after: equals)...]
    }
    let standard = parts[1] == "fbscrypt"
    guard standard || parts[1] == "fbimport",
      let salt = Self.bytes(parts[3], standard: standard),
      let hash = Self.bytes(parts[4], standard: standard),
      let scheme = Self.scheme(fields, firebaseScrypt: standard)
    else { return nil }
    self.init(scheme: scheme, salt: salt, hash: hash)
  }

  private static func scheme(_ fields: [Substring: Substring], firebaseScrypt: Bool) -> Scheme? {
    func number(_ name: Substring) -> UInt64? { fields[name].flatMap { UInt64($0) } }
    if firebaseScrypt {
      guard let n = number("n"), let r = number("r"), number("p") == 1,
        let key = bytes(fields["sk"] ?? "", standard: true),
        let separator = bytes(fields["ss"] ?? "", standard: true)
      else { return nil }
      return .firebaseScrypt(signerKey: key, saltSeparator: separator, rounds: r, memoryCost: n)
    }
    guard let name = fields["alg"] else { return nil }
    let order = fields["order"].flatMap { Order(rawValue: String($0)) }
    let rounds = number("rounds").flatMap { $0 <= 10_000_000 ? Int($0) : nil }
    if name == "STANDARD_SCRYPT" {
      guard let n = number("n"), let r = number("r"), let p = number("p") else { return nil }
      return .scrypt(n: n, r: r, p: p)
    }
    if name.hasPrefix("HMAC_") {
      guard let digest = PasswordPrimitives.Digest(rawValue: String(name.dropFirst(5))),
        let order, let key = bytes(fields["key"] ?? "", standard: false)
      else { return nil }
      return .hmac(digest, key: key, order: order)
    }
    if name == "PBKDF_SHA1" || name.hasPrefix("PBKDF2_") {
      let digest =
        name == "PBKDF_SHA1"
        ? .sha1 : PasswordPrimitives.Digest(rawValue: String(name.dropFirst(7)))
      guard let digest, let rounds else { return nil }
      return .pbkdf2(digest, iterations: rounds)
    }
    guard let digest = PasswordPrimitives.Digest(rawValue: String(name)), let rounds, let order
    else { return nil }
    return .digest(digest, rounds: rounds, order: order)
  }

  /// Standard base64 with padding, as GoTrue's `$fbscrypt$` form holds its parts.
  static func base64(_ bytes: [UInt8]) -> String {
    var text = ""
    for character in Base64URL.encode(bytes) {
      switch character {
      case "-": text.append("+")
      case "_": text.append("/")
      default: text.append(character)
      }
    }
    return text + String(repeating: "=", count: (4 - text.utf8.count % 4) % 4)
  }

  /// The bytes of `text`, standard base64 (padded) or base64url (unpadded); empty for none.
  static func bytes(_ text: Substring, standard: Bool) -> [UInt8]? {
    guard !text.isEmpty else { return [] }
    return standard ? decodeBase64(text) : Base64URL.decode(text)
  }

  /// The bytes of base64 `text` in either alphabet, padded or not; `nil` when it is not
  /// base64. (Google's APIs send bytes fields in base64url, and accept the standard alphabet.)
  public static func decodeBase64(_ text: some StringProtocol) -> [UInt8]? {
    var url = ""
    for character in text {
      switch character {
      case "+": url.append("-")
      case "/": url.append("_")
      case "=": continue
      default: url.append(character)
      }
    }
    return Base64URL.decode(url)
  }
}
