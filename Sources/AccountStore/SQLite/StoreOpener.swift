import CSQLite
import PrivateFiles

#if canImport(Glibc)
  import Glibc
#endif

/// Opens a store: checks the file is an authflow store (or new) before changing anything in
/// it, keeps it private to its owner, and turns on the write-ahead log.
enum StoreOpener {
  /// `PRAGMA application_id` of an authflow store ("AFLW"), so other SQLite files are told apart.
  static let applicationID: Int32 = 0x4146_4C57

  /// An open store, and what was done to make it safe that the user should hear about.
  struct Opened {
    var database: SQLiteDatabase
    var warnings: [String]
  }

  static func open(_ location: StoreLocation) throws(EmbeddedStoreError) -> Opened {
    do {
      switch location {
      case .memory:
        let database = try SQLiteDatabase(path: ":memory:", create: true)
        try database.execute("PRAGMA foreign_keys = ON")
        return Opened(database: database, warnings: [])
      case .file(let path):
        return try openFile(path)
      case .postgres(let url):
        throw EmbeddedStoreError.unreadable(
          url.description, "a PostgreSQL database is no SQLite file")
      }
    } catch let error as EmbeddedStoreError {
      throw error
    } catch let error as PrivateFile.Failure {
      throw .cannotCreate(error.path, error.reason)
    } catch let error as SQLiteError {
      throw .unreadable(location.description, error.message)
    } catch {
      throw .unreadable(location.description, "\(error)")
    }
  }

  private static func openFile(_ path: String) throws -> Opened {
    let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
      .joined(separator: "/")
    if !folder.isEmpty { try PrivateFile.ensureDirectory(folder) }
    try refuseFolderOthersCanWrite(folder.isEmpty ? "." : folder, store: path)
    // SQLite gives its -wal and -shm files the mode of the database file.
    try PrivateFile.createIfMissing(path)
    let warnings = ["", "-wal", "-shm"].compactMap { tighten(path + $0) }
    let database = try SQLiteDatabase(path: path, create: false)
    try database.execute("PRAGMA busy_timeout = 10000")
    try refuseForeignFile(database, path: path)
    try database.keepWriteAheadLog()
    // NB: on a brand-new file racing with other processes, this answers "busy" at once rather
    // than waiting on the busy timeout.
    try database.executeWaitingWhileBusy("PRAGMA journal_mode = WAL", for: 10)
    try database.execute(
      """
      PRAGMA synchronous = NORMAL;
      PRAGMA foreign_keys = ON;
      """)
    return Opened(database: database, warnings: warnings)
  }

  /// A file others may read is made private, with a warning; a file only its owner reads is
  /// left alone.
  private static func tighten(_ path: String) -> String? {
    guard let mode = PrivateFile.permissions(of: path), mode & 0o077 != 0 else { return nil }
    guard chmod(path, 0o600) == 0 else {
      return "\(path) can be read by others (mode \(octal(mode))) and could not be made private"
    }
    return "\(path) could be read by others; its mode is now 0600 (was \(octal(mode)))"
  }

  /// Others who can write the store's folder could put their own store in its place, so such a
  /// folder is refused (unless it is sticky, like /tmp, where only owners rename their files).
  private static func refuseFolderOthersCanWrite(_ folder: String, store: String) throws {
    var info = stat()
    guard stat(folder, &info) == 0 else { return }
    let othersWrite = info.st_mode & (S_IWGRP | S_IWOTH) != 0
    let sticky = info.st_mode & S_ISVTX != 0
    guard othersWrite, !sticky else { return }
    throw EmbeddedStoreError.unsafeFolder(folder)
  }

  /// Throws unless the file is empty, an authflow store, or an older authflow store that
  /// predates the application id; nothing is written before this check.
  private static func refuseForeignFile(_ database: SQLiteDatabase, path: String) throws {
    let id = try database.first(
      "PRAGMA application_id", row: { Int32(truncatingIfNeeded: $0.int(0)) })
    if id == applicationID { return }
    let tables = try database.query(
      "SELECT name FROM sqlite_master WHERE type = 'table'", row: { $0.text(0) })
    if id == 0, tables.isEmpty { return }
    let version = try database.first("PRAGMA user_version", row: { $0.int(0) }) ?? 0
    if id == 0, version >= 1, tables.contains("meta"), tables.contains("users") { return }
    throw EmbeddedStoreError.foreignFile(path)
  }

  private static func octal(_ mode: UInt32) -> String {
    "0" + String(mode, radix: 8)
  }
}
