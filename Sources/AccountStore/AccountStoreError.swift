/// Why the store could not do what was asked, in kinds the rules above it answer differently
/// (GoTrue's `store_*` codes, Firebase's `UNAVAILABLE`), with the store's own explanation.
package struct AccountStoreError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What kind of failure.
  package enum Kind: Equatable, Sendable {
    /// The store may not be written (a read-only file or database).
    case readOnly
    /// No room is left (a full disk).
    case full
    /// The store is damaged or not a store.
    case damaged
    /// The store cannot be reached now (busy, locked, I/O, a lost connection): try again.
    case unavailable
    /// A concurrent transaction got in the way (a serialization failure or a deadlock): the
    /// transaction was undone and may be tried again as a whole.
    case conflict
    /// Anything else: a bug, or a constraint the rules should have kept.
    case failed
  }

  /// What kind of failure.
  package var kind: Kind
  /// The store's explanation (never user input, never a secret).
  package var message: String
  /// The database's own code for the failure (PostgreSQL's SQLSTATE, such as `23505` for a
  /// unique violation), when it gave one.
  package var sqlState: String?

  package init(_ kind: Kind, _ message: String, sqlState: String? = nil) {
    self.kind = kind
    self.message = message
    self.sqlState = sqlState
  }

  /// One line for people.
  package var description: String { message }
}

/// An error type the rules above the store answer with, which can carry the store's failures:
/// each operation of ``Accounts`` throws it.
package protocol StoreFailure: Error {
  /// The store's failure `error`, as this type tells it.
  init(store error: AccountStoreError)
  /// Whether this is a failure of the store (as opposed to a refusal of the rules).
  var isStoreFailure: Bool { get }
}

extension AccountStoreError: StoreFailure {
  package init(store error: AccountStoreError) {
    self = error
  }

  package var isStoreFailure: Bool { true }
}
