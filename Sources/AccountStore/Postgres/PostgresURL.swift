import CPostgres

#if canImport(Glibc)
  import Glibc
#endif

/// Where a PostgreSQL store is: a `postgresql://` (or `postgres://`) URL, checked by libpq's
/// own parser before any connection is tried.
///
/// Nothing else is taken: a `mysql://…` URL or a path is refused with a line saying what was
/// wrong, never read as something it is not. The password never appears in `description` or in
/// an error.
public struct PostgresURL: Equatable, Sendable, CustomStringConvertible {
  /// The schemes libpq reads as a URL.
  package static let schemes = ["postgresql://", "postgres://"]

  /// The URL as given, for libpq.
  package let string: String

  /// Checks `string` as a PostgreSQL URL.
  package init(_ string: String) throws(AccountStoreError) {
    guard Self.isPostgreSQL(string) else {
      let what =
        if let scheme = Self.scheme(of: string) {
          "\(scheme)://… is not a PostgreSQL URL"
        } else {
          "not a PostgreSQL URL"
        }
      throw AccountStoreError(
        .failed, "\(what); use postgresql://user@host:port/database (or postgres://)")
    }
    var message: UnsafeMutablePointer<CChar>?
    guard let options = PQconninfoParse(string, &message) else {
      let reason = message.map { String(cString: $0) } ?? "out of memory"
      PQfreemem(message)
      throw AccountStoreError(
        .failed, "the PostgreSQL URL is malformed: \(Self.scrubbed(reason, of: string))")
    }
    defer { PQconninfoFree(options) }
    // NB: libpq reads the port only when it connects, where a word would be a failure to
    // connect ("try again") rather than the mistake it is.
    var option = options
    while let keyword = option.pointee.keyword {
      if String(cString: keyword) == "port", let value = option.pointee.val {
        let ports = String(cString: value).split(separator: ",", omittingEmptySubsequences: false)
        guard ports.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && UInt16($0) != nil })
        else {
          throw AccountStoreError(
            .failed, "the PostgreSQL URL's port is not a number from 0 to 65535")
        }
      }
      option += 1
    }
    self.string = string
  }

  /// Whether `string` starts with a scheme libpq reads as a PostgreSQL URL (as libpq compares
  /// it: in lower case).
  package static func isPostgreSQL(_ string: String) -> Bool {
    schemes.contains { string.hasPrefix($0) }
  }

  /// The URL with its password left out.
  public var description: String {
    guard let password = Self.password(in: string) else { return string }
    return string.replacingFirst(":" + password + "@", with: ":…@")
  }

  /// The letters before `://`, when `string` starts with a URL scheme.
  private static func scheme(of string: String) -> String? {
    guard let end = string.firstRange(of: "://")?.lowerBound, end > string.startIndex else {
      return nil
    }
    let scheme = string[..<end]
    let allowed = scheme.allSatisfy {
      $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0))
    }
    return allowed ? String(scheme) : nil
  }

  /// The text between the first `:` of the user information and its `@`, as written.
  private static func password(in string: String) -> String? {
    guard let start = string.firstRange(of: "://")?.upperBound else { return nil }
    let authority = string[start...].prefix { $0 != "/" && $0 != "?" }
    guard let at = authority.lastIndex(of: "@") else { return nil }
    let userInformation = authority[..<at]
    guard let colon = userInformation.firstIndex(of: ":") else { return nil }
    return String(userInformation[userInformation.index(after: colon)...])
  }

  /// libpq's explanation with the password (which it may quote) left out.
  private static func scrubbed(_ reason: String, of string: String) -> String {
    var reason = reason.split(whereSeparator: \.isNewline).joined(separator: " ")
    if let password = password(in: string), !password.isEmpty {
      reason = reason.replacingAll(password, with: "…")
    }
    return reason
  }
}

extension String {
  /// The string with the first occurrence of `target` replaced.
  fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
    guard let range = firstRange(of: target) else { return self }
    return self[..<range.lowerBound] + replacement + self[range.upperBound...]
  }

  /// The string with every occurrence of `target` replaced.
  func replacingAll(_ target: String, with replacement: String) -> String {
    guard !target.isEmpty else { return self }
    var result = ""
    var rest = self[...]
    while let range = rest.firstRange(of: target) {
      result += rest[..<range.lowerBound]
      result += replacement
      rest = rest[range.upperBound...]
    }
    return result + rest
  }
}

/// Runs `body` with libpq's keyword and value arrays (each ended by a NULL) for the pairs.
func withConnectionOptions<T>(
  _ options: KeyValuePairs<String, String>,
  _ body: ([UnsafePointer<CChar>?], [UnsafePointer<CChar>?]) -> T
) -> T {
  let keywords = options.map { (key: String, _) in strdup(key) } + [nil]
  let values = options.map { (_, value: String) in strdup(value) } + [nil]
  defer { (keywords + values).forEach { free($0) } }
  return body(
    keywords.map { $0.map { UnsafePointer($0) } }, values.map { $0.map { UnsafePointer($0) } })
}
