/// The difference between two texts, line by line: the shortest edit script (Myers' O(ND)
/// algorithm) and its unified rendering (`---`, `+++`, `@@` hunks with context).
package enum LineDiff {
  /// One step of an edit script, with the positions it has reached in each text.
  package struct Edit: Equatable, Sendable {
    /// What the step does.
    enum Kind: Equatable, Sendable { case same, removed, inserted }
    /// What the step does.
    var kind: Kind
    /// The line's index in the old text (for an insertion, where it goes).
    var old: Int
    /// The line's index in the new text (for a removal, where it was).
    var new: Int
  }

  /// The most differences searched for; past that, the diff removes every old line and inserts
  /// every new one (still a correct diff, only a long one).
  package static let searchLimit = 4_000

  /// A shortest edit script that turns `old` into `new`.
  package static func edits<Line: Equatable>(_ old: [Line], _ new: [Line]) -> [Edit] {
    let n = old.count
    let m = new.count
    // v[k] is the furthest x on diagonal k = x - y; each round keeps the part it can reach.
    var v = [Int](repeating: 0, count: 2 * (n + m) + 3)
    let offset = n + m + 1
    var trace: [[Int]] = []
    var found = false
    search: for d in 0...min(n + m, searchLimit) {
      trace.append(Array(v[(offset - d - 1)...(offset + d + 1)]))
      for k in stride(from: -d, through: d, by: 2) {
        var x =
          k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])
          ? v[offset + k + 1] : v[offset + k - 1] + 1
        var y = x - k
        while x < n, y < m, old[x] == new[y] {
          x += 1
          y += 1
        }
        v[offset + k] = x
        if x >= n, y >= m {
          found = true
          break search
        }
      }
    }
    guard found else {
      return (0..<n).map { Edit(kind: .removed, old: $0, new: 0) }
        + (0..<m).map { Edit(kind: .inserted, old: n, new: $0) }
    }
    var edits: [Edit] = []
    var x = n
    var y = m
    for d in stride(from: trace.count - 1, through: 0, by: -1) {
      let round = trace[d]
      let at = { (k: Int) in round[k + d + 1] }
      let k = x - y
      let previousK = k == -d || (k != d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1
      let previousX = d == 0 ? 0 : at(previousK)
      let previousY = d == 0 ? 0 : previousX - previousK
      while x > previousX, y > previousY {
        x -= 1
        y -= 1
        edits.append(Edit(kind: .same, old: x, new: y))
      }
      guard d > 0 else { break }
      if x == previousX {
        edits.append(Edit(kind: .inserted, old: x, new: previousY))
      } else {
        edits.append(Edit(kind: .removed, old: previousX, new: y))
      }
      x = previousX
      y = previousY
    }
    return edits.reversed()
  }

  /// The lines of `bytes`, each with its newline (the last one may have none).
  package static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    var lines: [ArraySlice<UInt8>] = []
    var start = bytes.startIndex
    while start < bytes.endIndex {
      let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? bytes.endIndex
      lines.append(bytes[start..<end])
      start = end
    }
    return lines
  }

  /// The unified diff from `old` (named `oldName`) to `new` (named `newName`), with `context`
  /// unchanged lines around each change; no lines when the texts are the same.
  package static func unified(
    old: [UInt8], new: [UInt8], oldName: String, newName: String, context: Int = 3
  ) -> [String] {
    let before = lines(old)
    let after = lines(new)
    let script = edits(before, after)
    let changes = script.indices.filter { script[$0].kind != .same }
    guard let firstChange = changes.first else { return [] }
    var output = ["--- \(oldName)", "+++ \(newName)"]
    var hunkStart = firstChange
    var hunkEnd = firstChange
    for change in changes.dropFirst() + [Int.max] {
      if change != Int.max, change - hunkEnd <= 2 * context + 1 {
        hunkEnd = change
        continue
      }
      let range = max(0, hunkStart - context)...min(script.count - 1, hunkEnd + context)
      output += hunk(script[range], before: before, after: after)
      hunkStart = change
      hunkEnd = change
    }
    return output
  }

  private static func hunk(
    _ steps: ArraySlice<Edit>, before: [ArraySlice<UInt8>], after: [ArraySlice<UInt8>]
  ) -> [String] {
    guard let first = steps.first else { return [] }
    let oldCount = steps.filter { $0.kind != .inserted }.count
    let newCount = steps.filter { $0.kind != .removed }.count
    let oldStart = oldCount == 0 ? first.old : first.old + 1
    let newStart = newCount == 0 ? first.new : first.new + 1
    var output = ["@@ -\(oldStart),\(oldCount) +\(newStart),\(newCount) @@"]
    for step in steps {
      let (mark, line) =
        switch step.kind {
        case .same: (" ", before[step.old])
        case .removed: ("-", before[step.old])
        case .inserted: ("+", after[step.new])
        }
      let ended = line.last == UInt8(ascii: "\n")
      output.append(mark + String(decoding: ended ? line.dropLast() : line, as: UTF8.self))
      if !ended { output.append("\\ No newline at end of file") }
    }
    return output
  }
}
