#if canImport(Glibc)
  import Glibc
#endif

/// Files only their owner may read: folders 0700, files 0600, written atomically.
public enum PrivateFile {
  /// Why a private file could not be read or written.
  public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
    /// The path involved.
    public var path: String
    /// What went wrong, from the system's error text.
    public var reason: String

    /// A failure at `path` for `reason`.
    public init(path: String, reason: String) {
      self.path = path
      self.reason = reason
    }

    /// One line: the path and what went wrong.
    public var description: String { "\(path): \(reason)" }

    static func errno(_ path: String) -> Failure {
      Failure(path: path, reason: String(cString: strerror(Glibc.errno)))
    }
  }

  /// Creates `path` and any missing parents; folders this creates are 0700.
  public static func ensureDirectory(_ path: String) throws(Failure) {
    var prefix = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/") {
      prefix += "/" + component
      if mkdir(prefix, 0o700) != 0, Glibc.errno != EEXIST {
        throw .errno(prefix)
      }
    }
    var info = stat()
    guard stat(path, &info) == 0 else { throw .errno(path) }
    guard info.st_mode & S_IFMT == S_IFDIR else {
      throw Failure(path: path, reason: "exists and is not a folder")
    }
  }

  /// Creates an empty 0600 file at `path` unless one exists; says whether it created it.
  @discardableResult
  public static func createIfMissing(_ path: String) throws(Failure) -> Bool {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    if descriptor >= 0 {
      close(descriptor)
      return true
    }
    if Glibc.errno == EEXIST { return false }
    throw .errno(path)
  }

  /// The bytes of the file at `path`, or `nil` when there is none.
  public static func read(_ path: String) throws(Failure) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    if descriptor < 0 {
      if Glibc.errno == ENOENT { return nil }
      throw .errno(path)
    }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if Glibc.errno == EINTR { continue }
        throw .errno(path)
      }
      if count == 0 { return bytes }
      bytes += chunk.prefix(count)
    }
  }

  /// Replaces the file at `path` with `bytes` (mode 0600) so readers see the old or the new
  /// content, never a mix; `synced` (the default) has the bytes on disk before the rename, so
  /// a crash cannot leave an empty file: a cache that can be rebuilt does without.
  public static func write(_ bytes: [UInt8], to path: String, synced: Bool = true) throws(Failure) {
    let temporary = try writeTemporary(bytes, beside: path, synced: synced)
    guard rename(temporary, path) == 0 else {
      let failure = Failure.errno(path)
      unlink(temporary)
      throw failure
    }
  }

  /// Writes `bytes` to `path` (mode 0600) only if no file is there, atomically: when two
  /// processes race, exactly one file wins and both then read the same content.
  public static func writeIfMissing(_ bytes: [UInt8], to path: String) throws(Failure) {
    let temporary = try writeTemporary(bytes, beside: path, synced: true)
    defer { unlink(temporary) }
    if link(temporary, path) != 0, Glibc.errno != EEXIST { throw .errno(path) }
  }

  private static func writeTemporary(
    _ bytes: [UInt8], beside path: String, synced: Bool
  ) throws(Failure) -> String {
    let temporary = "\(path).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw .errno(temporary) }
    var written = 0
    while written < bytes.count {
      let count = bytes.withUnsafeBytes {
        Glibc.write(descriptor, $0.baseAddress.map { $0 + written }, $0.count - written)
      }
      if count < 0 {
        if Glibc.errno == EINTR { continue }
        let failure = Failure.errno(temporary)
        close(descriptor)
        unlink(temporary)
        throw failure
      }
      written += count
    }
    let stored = !synced || fsync(descriptor) == 0
    close(descriptor)
    guard stored else {
      let failure = Failure.errno(temporary)
      unlink(temporary)
      throw failure
    }
    return temporary
  }

  /// Deletes the file at `path`; a missing file is not an error.
  public static func remove(_ path: String) throws(Failure) {
    if unlink(path) != 0, Glibc.errno != ENOENT { throw .errno(path) }
  }

  /// The permission bits of the file at `path`, or `nil` when there is none.
  public static func permissions(of path: String) -> UInt32? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return UInt32(info.st_mode & 0o777)
  }
}
