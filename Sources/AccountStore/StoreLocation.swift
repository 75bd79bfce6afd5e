import PrivateFiles

/// Where the engine keeps its accounts.
public enum StoreLocation: Equatable, Sendable, CustomStringConvertible {
  /// A SQLite file, shared safely by several processes.
  case file(String)
  /// A private in-memory database that disappears with the process.
  case memory
  /// A PostgreSQL database, in GoTrue's own `auth` schema.
  case postgres(PostgresURL)

  /// The store a user has without asking: `$XDG_DATA_HOME/authflow/auth.db`, else
  /// `~/.local/share/authflow/auth.db`; the shell and the server share it.
  public static func defaultStore(environment: [String: String]) -> StoreLocation {
    .file(XDGDirectories(environment: environment).dataHome + "/authflow/auth.db")
  }

  /// `--store` syntax: `:memory:`, a `postgresql://` (or `postgres://`) URL, or a path. A URL
  /// of another kind (`mysql://…`, `file://…`) is refused, never taken for a path.
  public init(argument: String) throws(StoreLocationError) {
    if argument == ":memory:" {
      self = .memory
    } else if PostgresURL.isPostgreSQL(argument) || Self.looksLikeURL(argument) {
      do {
        self = .postgres(try PostgresURL(argument))
      } catch {
        throw StoreLocationError(message: error.message)
      }
    } else {
      self = .file(argument)
    }
  }

  /// Whether `argument` starts as a URL does (`scheme://`), with a scheme RFC 3986 allows.
  private static func looksLikeURL(_ argument: String) -> Bool {
    let parts = argument.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count == 2 else { return false }
    let scheme = parts[0]
    guard let first = scheme.first, first.isASCII, first.isLetter else { return false }
    return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
  }

  /// How many calls to the store can be waiting on the network at once: a PostgreSQL store's
  /// connections; 0 for SQLite, whose calls wait on nothing but its lock.
  public var networkWaits: Int {
    switch self {
    case .file, .memory: 0
    case .postgres: PostgresAccountStore.defaultPoolSize
    }
  }

  /// The path, `:memory:`, or the URL without its password.
  public var description: String {
    switch self {
    case .file(let path): path
    case .memory: ":memory:"
    case .postgres(let url): url.description
    }
  }
}

/// Why a `--store` value names no store authflow can open, in one line.
public struct StoreLocationError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What was wrong, and what would be right.
  public var message: String

  /// The message.
  public var description: String { message }
}

/// Why the store could not be opened.
public enum EmbeddedStoreError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A folder or file of the store could not be created.
  case cannotCreate(String, String)
  /// The file is not a usable store (not SQLite, damaged, unreadable).
  case unreadable(String, String)
  /// The PostgreSQL database could not be reached or made ready.
  case unreachable(String, String)
  /// A newer authflow made the store.
  case newerSchema(found: Int, supported: Int)
  /// The configuration asks for something the engine does not do.
  case unusableConfiguration(String)
  /// The file is an SQLite database of another application.
  case foreignFile(String)
  /// The store's folder can be written by others, who could replace the store.
  case unsafeFolder(String)

  /// One line saying what is wrong and what would be right.
  public var description: String {
    switch self {
    case .cannotCreate(let path, let reason):
      "cannot create the store at \(path): \(reason); pass --store with a writable path"
    case .unreadable(let path, let reason):
      "cannot open the store \(path): \(reason); pass --store with an authflow store or a new path"
    case .unreachable(let url, let reason):
      "cannot open the store \(url): \(reason); check that PostgreSQL runs there and that the "
        + "URL's user may use the database"
    case .newerSchema(let found, let supported):
      "the store has schema version \(found) but this authflow reads up to \(supported); upgrade authflow"
    case .unusableConfiguration(let reason):
      "the engine cannot run: \(reason)"
    case .foreignFile(let path):
      "\(path) is another application's SQLite file, left untouched; "
        + "pass --store with an authflow store or a new path"
    case .unsafeFolder(let folder):
      "others can write to \(folder), so they could replace the store; "
        + "use a folder only you can write (chmod go-w \(folder)) or another --store"
    }
  }
}
