#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A multi-factor authentication factor as GoTrue describes one (`models/factor.go`): in a
/// user's `factors` and in the admin API's answers. Decoded leniently, encoded with GoTrue's
/// keys and omissions.
public struct GoTrueFactor: Equatable, Hashable, Sendable, Codable {
  /// The factor's UUID.
  public var id: String
  /// The name the user gave it; GoTrue leaves the key out when it is empty.
  public var friendlyName: String?
  /// `totp`, `phone` or `webauthn`.
  public var factorType: String
  /// `unverified` until a first code is verified, then `verified`.
  public var status: String
  /// When the factor was enrolled.
  public var createdAt: Date?
  /// When it last changed.
  public var updatedAt: Date?
  /// A phone factor's number; GoTrue always sends the key, empty for other factors.
  public var phone: String?
  /// When it was last challenged; `null` until then.
  public var lastChallengedAt: Date?

  /// A factor with the given fields.
  public init(
    id: String, friendlyName: String? = nil, factorType: String = "totp", status: String,
    createdAt: Date? = nil, updatedAt: Date? = nil, phone: String? = "",
    lastChallengedAt: Date? = nil
  ) {
    self.id = id
    self.friendlyName = friendlyName
    self.factorType = factorType
    self.status = status
    self.createdAt = createdAt
    self.updatedAt = updatedAt
    self.phone = phone
    self.lastChallengedAt = lastChallengedAt
  }

  /// Whether a first code was verified with it.
  public var isVerified: Bool { status == "verified" }

  enum CodingKeys: String, CodingKey {
    case id, status, phone
    case friendlyName = "friendly_name"
    case factorType = "factor_type"
    case createdAt = "created_at"
    case updatedAt = "updated_at"
    case lastChallengedAt = "last_challenged_at"
  }

  /// Decodes a factor, tolerating missing and null fields but its id.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    id = try c.decode(String.self, forKey: .id)
    friendlyName = try c.decodeIfPresent(String.self, forKey: .friendlyName)
    factorType = try c.decodeIfPresent(String.self, forKey: .factorType) ?? ""
    status = try c.decodeIfPresent(String.self, forKey: .status) ?? ""
    createdAt = try c.decodeIfPresent(Date.self, forKey: .createdAt)
    updatedAt = try c.decodeIfPresent(Date.self, forKey: .updatedAt)
    phone = try c.decodeIfPresent(String.self, forKey: .phone)
    lastChallengedAt = try c.decodeIfPresent(Date.self, forKey: .lastChallengedAt)
  }

  /// Encodes the factor as GoTrue does: `friendly_name` only when set, `phone` always (empty
  /// for a TOTP factor), `last_challenged_at` always (`null` before a challenge).
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(id, forKey: .id)
    try c.encode(createdAt ?? Date(timeIntervalSince1970: 0), forKey: .createdAt)
    try c.encode(updatedAt ?? createdAt ?? Date(timeIntervalSince1970: 0), forKey: .updatedAt)
    try c.encode(status, forKey: .status)
    if let friendlyName, !friendlyName.isEmpty {
      try c.encode(friendlyName, forKey: .friendlyName)
    }
    try c.encode(factorType, forKey: .factorType)
    try c.encode(phone ?? "", forKey: .phone)
    if let lastChallengedAt {
      try c.encode(lastChallengedAt, forKey: .lastChallengedAt)
    } else {
      try c.encodeNil(forKey: .lastChallengedAt)
    }
  }
}
