/// What `accounts:batchCreate` answers: the users it did not import, by their index in the
/// request, and why (an empty list when it imported every one).
public struct IdentityToolkitUploadAccount: Codable, Equatable, Hashable, Sendable,
  EmulatorEncodable
{
  /// `identitytoolkit#UploadAccountResponse`.
  public var kind: String?
  /// The users not imported.
  public var error: [Failure]?

  /// A user not imported.
  public struct Failure: Codable, Equatable, Hashable, Sendable {
    /// Its index in `users`.
    public var index: Int
    /// Why (`localId is missing`, `email is invalid`, …).
    public var message: String

    /// An entry with the given parts.
    public init(index: Int, message: String) {
      self.index = index
      self.message = message
    }
  }

  /// An answer listing `error`.
  public init(kind: String? = "identitytoolkit#UploadAccountResponse", error: [Failure]?) {
    self.kind = kind
    self.error = error
  }

  /// `kind`, then `error` (`index` and `message` each), as the emulator writes it: the list
  /// is there, empty, when every user was imported.
  public var emulatorJSON: EmulatorJSON {
    .members([
      "kind": .maybe(kind),
      "error": error.map { failures in
        .array(
          failures.map { failure in
            .members(["index": .int(Int64(failure.index)), "message": .string(failure.message)])
          })
      },
    ])
  }
}
