import GoTrue
import HTTPServer

/// A JSON body as GoTrue's OAuth server reads one (`json.NewDecoder(r.Body).Decode`): an object
/// whose member names match ignoring case, `null` the same as absent, unknown members ignored;
/// anything else (no body, not an object, a member of the wrong kind) is refused whole with
/// the handler's one message.
struct OAuthBody {
  private let members: [String: JSONValue]
  private let refusal: GoTrueAPIError

  /// The body of `bytes`, or `refusal`.
  init(_ bytes: [UInt8], refusal: GoTrueAPIError) throws(GoTrueFailure) {
    guard case .object(let object)? = JSONValue(parsing: bytes) else { throw .api(refusal) }
    var members: [String: JSONValue] = [:]
    for (name, value) in object { members[name.lowercased()] = value }
    self.members = members
    self.refusal = refusal
  }

  /// GoTrue's `400 bad_json "Invalid JSON body"`, the admin routes' refusal.
  static let invalid = GoTrueAPIError(status: 400, code: .badJSON, message: "Invalid JSON body")

  /// Member `name` as a string; `nil` when absent or `null`.
  func string(_ name: String) throws(GoTrueFailure) -> String? {
    switch members[name] {
    case nil, .null?: return nil
    case .string(let text)?: return text
    default: throw .api(refusal)
    }
  }

  /// Member `name` as a list of strings (a `null` in it an empty string, as Go reads it);
  /// `nil` when absent or `null`.
  func strings(_ name: String) throws(GoTrueFailure) -> [String]? {
    switch members[name] {
    case nil, .null?: return nil
    case .array(let items)?:
      var strings: [String] = []
      for item in items {
        switch item {
        case .string(let text): strings.append(text)
        case .null: strings.append("")
        default: throw .api(refusal)
        }
      }
      return strings
    default: throw .api(refusal)
    }
  }
}
