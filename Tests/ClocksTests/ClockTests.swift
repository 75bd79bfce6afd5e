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

struct ClockTravelTests {
  let epoch = Date(timeIntervalSince1970: 1_735_689_600)

  @Test func aClockMovesForwardToALaterDateAndSaysHowFar() {
    let clock = AdjustableClock(fixedAt: epoch)
    #expect(clock.advance(to: epoch.addingTimeInterval(90_000)) == 90_000)
    #expect(clock.now == epoch.addingTimeInterval(90_000))
    #expect(clock.offset == 90_000)
  }

  @Test func aClockRefusesToMoveBackAndStaysWhereItWas() {
    let clock = AdjustableClock(fixedAt: epoch)
    clock.advance(by: 60)
    #expect(clock.advance(to: epoch) == nil)
    #expect(clock.now == epoch.addingTimeInterval(60))
    #expect(clock.offset == 60)
  }

  @Test func durationsReadAsTheShellAndGoWriteThem() {
    #expect(ClockDuration.seconds("90s") == 90)
    #expect(ClockDuration.seconds("15m") == 900)
    #expect(ClockDuration.seconds("25h") == 90_000)
    #expect(ClockDuration.seconds("1h30m") == 5_400)
    #expect(ClockDuration.seconds("1.5h") == 5_400)
    #expect(ClockDuration.seconds("3d") == 259_200)
    #expect(ClockDuration.seconds("500ms") == 0.5)
    for bad in ["", "0s", "10", "1x", "h", "-1s", "1h30", ".5h", "5.h", "3651d", "1ns"] {
      #expect(ClockDuration.seconds(bad) == nil, "\(bad)")
    }
  }

  @Test func durationsAreWrittenLargestUnitFirst() {
    #expect(ClockDuration.text(90_000) == "25h")
    #expect(ClockDuration.text(5_400) == "1h30m")
    #expect(ClockDuration.text(90) == "1m30s")
    #expect(ClockDuration.text(2.5) == "2.5s")
    #expect(ClockDuration.text(3_661.25) == "1h1m1.25s")
    #expect(ClockDuration.text(0) == "0s")
  }
}
