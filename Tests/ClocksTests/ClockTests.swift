import Clocks
import Foundation
import Testing

struct ClockTests {
  let epoch = Date(timeIntervalSince1970: 1_735_689_600)

  @Test func aFixedClockStandsStillUntilAdvanced() {
    let clock = AdjustableClock(fixedAt: epoch)
    #expect(clock.now == epoch)
    clock.advance(by: 90)
    #expect(clock.now == epoch.addingTimeInterval(90))
    clock.advance(by: 30)
    #expect(clock.now == epoch.addingTimeInterval(120))
  }

  @Test func aWallClockKeepsItsOffset() {
    let clock = AdjustableClock()
    let before = SystemClock().now
    clock.advance(by: 3_600)
    let now = clock.now
    #expect(now.timeIntervalSince(before) >= 3_600)
    #expect(now.timeIntervalSince(before) < 3_660)
  }
}
