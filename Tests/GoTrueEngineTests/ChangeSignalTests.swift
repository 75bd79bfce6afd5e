import Testing

@testable import GoTrueEngine

/// A ``ChangeSignal`` wakes its waiters on a change, at once when they are behind, and after
/// their limit or their cancellation otherwise.
struct ChangeSignalTests {
  @Test func aWaiterBehindTheVersionReturnsAtOnce() async {
    let signal = ChangeSignal()
    signal.touch()
    signal.touch()
    #expect(signal.version == 2)
    #expect(await signal.change(after: 1, within: .seconds(60)) == 2)
  }

  @Test func aChangeWakesEveryWaiter() async {
    let signal = ChangeSignal()
    async let first = signal.change(after: 0, within: .seconds(60))
    async let second = signal.change(after: 0, within: .seconds(60))
    // Touch until both have seen it: a waiter may register after the first touch.
    let touching = Task {
      while !Task.isCancelled {
        signal.touch()
        try? await Task.sleep(for: .milliseconds(5))
      }
    }
    let versions = await [first, second]
    touching.cancel()
    #expect(versions.allSatisfy { $0 >= 1 })
  }

  @Test func aWaiterWithNoChangeReturnsAfterItsLimit() async {
    let signal = ChangeSignal()
    let started = ContinuousClock.now
    #expect(await signal.change(after: 0, within: .milliseconds(30)) == 0)
    #expect(ContinuousClock.now - started >= .milliseconds(30))
  }

  @Test func aCancelledWaiterReturns() async {
    let signal = ChangeSignal()
    let waiter = Task { await signal.change(after: 0, within: .seconds(60)) }
    waiter.cancel()
    #expect(await waiter.value == 0)
  }
}
