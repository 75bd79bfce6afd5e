import AuthCrypto
import AuthFlowGoTrue
import Clocks
import Foundation
import PrivateFiles
import Testing

/// Hostile input never crashes the shell: each bad line gets one line of error with its number,
/// the exit status is 1, and the store is left as it was.
@Suite(.serialized)
struct RobustnessTests {
  private func run(_ input: Data, store: String? = nil) throws -> ProcessResult {
    try runAuthflow(["--store", store ?? ":memory:", "--hash-cost", "4"], input: input)
  }

  @Test func invalidUTF8() throws {
    let result = try run(Data([0x73, 0x68, 0x6F, 0xFF, 0x77, 0x0A, 0x73, 0x68, 0x6F, 0x77, 0x0A]))
    #expect(result.status == 1)
    #expect(result.error == "line 1: the line is not valid UTF-8 text\n")
    #expect(result.output.hasPrefix("Welcome"))
  }

  @Test func nulBytes() throws {
    let result = try run(Data("set email a\u{0}b\nshow\n".utf8))
    #expect(result.error == "line 1: the line contains a NUL byte; commands are text\n")
    #expect(result.status == 1)
  }

  @Test func aOneMegabyteLine() throws {
    var input = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
    input.append(contentsOf: Array("\nsignin\nexpect state login\n".utf8))
    let result = try run(input)
    #expect(result.error == "line 1: the line is longer than 65536 bytes\n")
    #expect(result.output == "→ Sign In\n")
    #expect(result.status == 1)
  }

  @Test func aOneMegabyteLastLineWithoutNewline() throws {
    let result = try run(Data(repeating: UInt8(ascii: "y"), count: 1 << 20))
    #expect(result.error == "line 1: the line is longer than 65536 bytes\n")
  }

  @Test func longButAcceptableLineIsAnUnknownCommand() throws {
    let result = try run(Data((String(repeating: "z", count: 60_000) + "\n").utf8))
    #expect(result.error.hasPrefix("line 1: unknown command (not repeated"))
    #expect(result.error.split(separator: "\n").count == 1)
  }

  @Test func randomBytesAgainstAFileStoreLeaveItUnchanged() throws {
    let folder = NSTemporaryDirectory() + "authflow-fuzz-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let store = folder + "/auth.db"
    _ = try run(Data("show\n".utf8), store: store)
    let before = try Data(contentsOf: URL(fileURLWithPath: store))

    let random = SeededRandom(seed: 7)
    for round in 0..<5 {
      var bytes = Data(random.bytes(20_000))
      bytes.append(contentsOf: Array("\"unbalanced\n'also\nforgot\nconsent on\nwhoami\n\\".utf8))
      let result = try run(bytes, store: store)
      #expect(result.status == 1, "round \(round)")
      let lines = result.error.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
      #expect(!lines.isEmpty)
      for line in lines { #expect(line.hasPrefix("line "), "round \(round): \(line.prefix(80))") }
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
  }
}
