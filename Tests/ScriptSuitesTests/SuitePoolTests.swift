import Foundation
import Testing

@testable import ScriptSuites

/// When the suite's jobs fill every CPU it may use, each job runs its scripts on a CPU of its own.
struct SuitePoolTests {
  @Test func eachJobGetsACPUOfItsOwnOnlyWhenTheJobsFillEveryCPU() {
    #expect(SuitePool.cpus(forJobs: 2, allowed: [0, 1]) == [0, 1])
    #expect(SuitePool.cpus(forJobs: 2, allowed: [3, 5]) == [3, 5])
    #expect(SuitePool.cpus(forJobs: 1, allowed: [0]) == [], "one job: nothing to keep apart")
    #expect(SuitePool.cpus(forJobs: 2, allowed: [0, 1, 2, 3]) == [], "spare CPUs serve better")
    #expect(SuitePool.cpus(forJobs: 4, allowed: [0, 1]) == [], "more jobs than CPUs")
    #expect(SuitePool.cpus(forJobs: 2, allowed: []) == [], "the system did not say")
  }

  @Test func theAllowedCPUsAreTheOnesTheKernelLists() throws {
    #expect(SuitePool.allowedCPUs() == (try Self.allowedList(pid: getpid())))
  }

  @Test func aProcessStartedOnACPURunsThereAloneAndOneStartedWithoutRunsWhereTheSuiteMay() throws {
    let allowed = SuitePool.allowedCPUs()
    let cpu = try #require(allowed.last)
    for pinned in [true, false] {
      var child = try ChildProcess.spawn(
        program: "/bin/sleep", arguments: ["30"], environment: [], input: "/dev/null",
        cpu: pinned ? cpu : nil)
      defer { child.kill() }
      #expect(try Self.allowedList(pid: child.pid) == (pinned ? [cpu] : allowed))
    }
  }

  /// The CPUs `/proc` lists for process `pid` (`Cpus_allowed_list: 0-3,6`).
  static func allowedList(pid: pid_t) throws -> [Int32] {
    let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
    let line = try #require(
      status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") })
    let list = line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)
    return try list.split(separator: ",").flatMap { range -> [Int32] in
      let ends = try range.split(separator: "-").map { try #require(Int32($0)) }
      return Array(ends[0]...(ends.last ?? ends[0]))
    }
  }
}
