#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// A script's golden transcript, `NAME.transcript` beside it, read and written only as a
/// regular file there. A shared suite's golden that is a symbolic link to `/proc/self/environ`
/// or `~/.ssh/id_rsa` would put those bytes in the diff and the JUnit report, and a FIFO would
/// hold the runner forever; both are refused, as is anything larger than a transcript gets.
package enum GoldenTranscript {
  /// The largest golden read: a script's `--echo` output, far below this.
  package static let maximumBytes = 16 << 20

  /// Why a golden was not read or written.
  package enum Refusal: Error, Equatable {
    /// It is a symbolic link.
    case symbolicLink
    /// It is not a regular file: a FIFO, a device, a folder, a socket (named).
    case notRegular(String)
    /// It holds more than ``maximumBytes``.
    case tooLarge
    /// It cannot be opened or read; the system's reason.
    case unreadable(String)
    /// The new one cannot be written.
    case unwritable

    /// The problem line for the golden called `name`: what is wrong and what would be right.
    package func text(_ name: String) -> String {
      let right = "a golden transcript must be a regular file beside its script"
      return switch self {
      case .symbolicLink: "\(name) is a symbolic link; \(right)"
      case .notRegular(let kind): "\(name) is \(kind); \(right)"
      case .tooLarge:
        "\(name) is larger than 16 MiB, which no script's --echo output is; remove it, or "
          + "write it again with --update"
      case .unreadable(let reason): "\(name) cannot be read (\(reason))"
      case .unwritable: "cannot write \(name)"
      }
    }
  }

  /// The bytes of the golden at `path`, or `nil` when there is none. It is opened without
  /// following a link or waiting for a FIFO's writer, and read only when it is a regular file.
  package static func read(_ path: String) throws(Refusal) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
    guard descriptor >= 0 else {
      switch errno {
      case ENOENT: return nil
      case ELOOP: throw .symbolicLink
      case let error: throw .unreadable(String(cString: strerror(error)))
      }
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw .unreadable(String(cString: strerror(errno)))
    }
    guard status.st_mode & S_IFMT == S_IFREG else { throw .notRegular(kind(status.st_mode)) }
    guard status.st_size <= maximumBytes else { throw .tooLarge }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(Int(status.st_size))
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    // Read to the end, in case it grew since fstat, but never past the limit.
    while bytes.count <= maximumBytes {
      let count = Glibc.read(descriptor, &chunk, chunk.count)
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else { throw .unreadable(String(cString: strerror(errno))) }
      if count == 0 { return bytes }
      bytes += chunk[..<count]
    }
    throw .tooLarge
  }

  /// Makes the golden at `path` hold `bytes`; whether it changed. What is there must be a
  /// regular file (or nothing, or one too large to read); the new one is written beside it and
  /// renamed into place, so a link made there meanwhile is replaced, never written through.
  package static func update(_ path: String, to bytes: [UInt8]) throws(Refusal) -> Bool {
    let existing: [UInt8]?
    do {
      existing = try read(path)
    } catch {
      guard error == .tooLarge else { throw error }
      existing = nil
    }
    guard existing != bytes else { return false }
    do {
      try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw .unwritable
    }
    return true
  }

  /// What a file of `mode` is, as a problem line names it.
  private static func kind(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFIFO: "a FIFO"
    case S_IFCHR, S_IFBLK: "a device"
    case S_IFDIR: "a folder"
    case S_IFSOCK: "a socket"
    default: "not a regular file"
    }
  }
}
