import Foundation
import ScriptSuites
import Testing

@testable import AuthShell

/// `authflow test` remembers how long each script took and starts the slowest first next time.
struct SuiteDurationsTests {
  @Test func theFileReadsBackWhatWasWrittenAndSkipsLinesThatAreNotADurationAndAPath() {
    let durations = SuiteDurations(
      parsing: "1500\t/s/slow.authflow\nnot a line\n-3\t/s/negative.authflow\n"
        + "20\trelative.authflow\n12\t/s/quick.authflow\n\n7\t/s/tab\tin name.authflow")
    #expect(
      durations.seconds == [
        "/s/slow.authflow": 1.5, "/s/quick.authflow": 0.012, "/s/tab\tin name.authflow": 0.007,
      ])
    #expect(SuiteDurations(parsing: durations.text(latest: [])) == durations)
  }

  @Test func theLatestRunComesFirstAndTheFileKeepsAtMostItsLimit() {
    var durations = SuiteDurations()
    for index in 0..<(SuiteDurations.limit + 5) {
      durations.seconds["/old/\(index).authflow"] = 0.01
    }
    durations.seconds["/new/a.authflow"] = 0.0304
    let lines = durations.text(latest: ["/new/a.authflow"]).split(separator: "\n")
    #expect(lines.count == SuiteDurations.limit)
    #expect(lines.first == "30\t/new/a.authflow")
  }

  @Test func untimedScriptsStartFirstLargestFirstThenTheTimedOnesSlowestFirst() {
    let durations = SuiteDurations(seconds: ["/a": 0.010, "/b": 0.030, "/c": 0.030])
    let order = durations.order([
      ("/a", 900), ("/new-small", 10), ("/b", 100), ("/new-large", 500), ("/c", 50),
    ])
    #expect(order == [3, 1, 2, 4, 0])
  }

  @Test func aSuiteRunKeepsEachScriptsTimeInTheStateFolderAndReadsItBack() throws {
    let folder = try ScriptFolder()
    defer { folder.remove() }
    let names = ["03-login-valid-credentials", "05-navigate-to-signup"]
    try folder.copyExamples(names)
    let state = folder.path + "-state"
    defer { try? FileManager.default.removeItem(atPath: state) }
    let path = state + "/authflow/test-durations"
    // An unreadable line from before is dropped, a script of another folder kept.
    try FileManager.default.createDirectory(
      atPath: state + "/authflow", withIntermediateDirectories: true)
    try "garbage\n5\t/elsewhere/x.authflow\n".write(toFile: path, atomically: true, encoding: .utf8)

    let run = runSuite([folder.path, "--jobs", "2"], temporary: folder.path, state: state)
    #expect(run.status == 0, "\(run.output)\(run.errors)")
    let durations = SuiteDurations.load(from: path)
    #expect(
      Set(durations.seconds.keys)
        == Set(names.map { "\(folder.path)/\($0).authflow" } + ["/elsewhere/x.authflow"]))
    #expect(durations.seconds.values.allSatisfy { $0 > 0 && $0 < 60 })
    var info = stat()
    #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600, "private, as history is")
    #expect(!folder.contents.contains { $0.contains("durations") })
  }
}
