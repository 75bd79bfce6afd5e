/// An admin's listings.
extension IdentityToolkitRequest {
  /// `GET accounts:batchGet`'s query: a page of users by id.
  public struct BatchGet: IdentityToolkitBody {
    /// How many users, as a number's text (floored; `0` or none is 20, a negative one all).
    public var maxResults: String?
    /// The page after this user id.
    public var nextPageToken: String?

    /// A page with the given members.
    public init(maxResults: String? = nil, nextPageToken: String? = nil) {
      self.maxResults = maxResults
      self.nextPageToken = nextPageToken
    }
  }

  /// v3 `downloadAccount`: `batchGet` of the project named, its query in the body.
  public struct DownloadAccount: IdentityToolkitBody {
    /// The project (the emulator's only check of the caller before the admin's).
    public var targetProjectId: String?
    /// How many users, as ``BatchGet/maxResults``.
    public var maxResults: String?
    /// The page after this user id.
    public var nextPageToken: String?

    /// A page with the given members.
    public init(
      targetProjectId: String? = nil, maxResults: String? = nil, nextPageToken: String? = nil
    ) {
      self.targetProjectId = targetProjectId
      self.maxResults = maxResults
      self.nextPageToken = nextPageToken
    }
  }

  /// `accounts:query`: every user, or only how many there are. Its `expression` (SQL-like
  /// filters, which a server refuses unless the list is empty) is read on its own.
  public struct Query: IdentityToolkitBody {
    /// `false` answers the count alone.
    public var returnUserInfo: Bool?
    /// How many users, as a number's text.
    public var limit: String?
    /// How many to skip, as a number's text.
    public var offset: String?
    /// `ASC` or `DESC` (a number is the name at that index).
    public var order: String?
    /// `USER_ID`, `NAME`, … (a number is the name at that index).
    public var sortBy: String?

    /// A query with the given members.
    public init(
      returnUserInfo: Bool? = nil, limit: String? = nil, offset: String? = nil,
      order: String? = nil, sortBy: String? = nil
    ) {
      self.returnUserInfo = returnUserInfo
      self.limit = limit
      self.offset = offset
      self.order = order
      self.sortBy = sortBy
    }
  }
}
