import Foundation
import PrivateFiles
import Testing

/// Private files and folders, each test in its own temporary folder that it removes.
struct PrivateFileTests {
  let folder = NSTemporaryDirectory() + "authflow-files-" + UUID().uuidString

  @Test func foldersAre0700AndFiles0600() throws {
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try PrivateFile.ensureDirectory(folder + "/a/b")
    #expect(PrivateFile.permissions(of: folder + "/a") == 0o700)
    #expect(PrivateFile.permissions(of: folder + "/a/b") == 0o700)
    try PrivateFile.write(Array("hello".utf8), to: folder + "/a/b/file")
    #expect(PrivateFile.permissions(of: folder + "/a/b/file") == 0o600)
    #expect(try PrivateFile.read(folder + "/a/b/file") == Array("hello".utf8))
  }

  @Test func missingFilesReadAsNothingAndRemoveQuietly() throws {
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try PrivateFile.ensureDirectory(folder)
    #expect(try PrivateFile.read(folder + "/none") == nil)
    try PrivateFile.remove(folder + "/none")
    #expect(PrivateFile.permissions(of: folder + "/none") == nil)
  }

  @Test func writeReplacesAndWriteIfMissingKeepsTheFirst() throws {
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try PrivateFile.ensureDirectory(folder)
    let path = folder + "/key"
    try PrivateFile.writeIfMissing([1], to: path)
    try PrivateFile.writeIfMissing([2], to: path)
    #expect(try PrivateFile.read(path) == [1])
    try PrivateFile.write([3], to: path)
    #expect(try PrivateFile.read(path) == [3])
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder)
    #expect(leftovers == ["key"], "no temporary file is left behind")
  }

  @Test func createIfMissingSaysWhetherItCreated() throws {
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try PrivateFile.ensureDirectory(folder)
    #expect(try PrivateFile.createIfMissing(folder + "/f"))
    #expect(try !PrivateFile.createIfMissing(folder + "/f"))
  }

  @Test func aFileInTheWayOfAFolderIsAnError() throws {
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try PrivateFile.ensureDirectory(folder)
    try PrivateFile.write([0], to: folder + "/file")
    #expect(throws: PrivateFile.Failure.self) { try PrivateFile.ensureDirectory(folder + "/file") }
  }

  @Test func xdgDirectories() {
    let plain = XDGDirectories(environment: ["HOME": "/home/ada"])
    #expect(plain.stateHome == "/home/ada/.local/state")
    #expect(plain.dataHome == "/home/ada/.local/share")
    let set = XDGDirectories(environment: ["HOME": "/h/", "XDG_STATE_HOME": "/s"])
    #expect(set.stateHome == "/s")
    #expect(set.dataHome == "/h/.local/share")
    let relative = XDGDirectories(environment: ["HOME": "/h", "XDG_DATA_HOME": "rel"])
    #expect(relative.dataHome == "/h/.local/share", "relative XDG paths are ignored")
  }
}
