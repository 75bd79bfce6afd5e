// authflow-lab: benchmarks and fault drills for the embedded engine, driven by `make bench`
// and by the multi-process tests. Not installed for users.

import AccountStore
import AuthCrypto
import GoTrue
import GoTrueEngine

#if canImport(Glibc)
  import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
let options = LabOptions(arguments.dropFirst())

/// Writes `text` straight to a file descriptor, unbuffered.
func emit(_ text: String, to descriptor: Int32 = 1) {
  var text = text + "\n"
  _ = text.withUTF8 { write(descriptor, $0.baseAddress, $0.count) }
}

func fail(_ message: String) -> Never {
  emit("authflow-lab: \(message)", to: 2)
  exit(2)
}

switch arguments.first {
case "signup":
  // One signup, started at --start-at (Unix ms) so racing processes collide.
  let engine = options.engine()
  options.waitForStart()
  let outcome: String
  do {
    switch try await engine.signUp(
      email: options.string("email"), password: "Password123", data: [:])
    {
    case .session: outcome = "created"
    case .user(let user): outcome = user.identities?.isEmpty == true ? "duplicate" : "created"
    }
  } catch {
    outcome = error.code?.rawValue ?? "\(error)"
  }
  emit(outcome)

case "open":
  // Opens (and so creates) the store at --start-at, so racing processes create it together.
  options.waitForStart()
  _ = options.engine()
  emit("opened")

case "churn":
  // Signs up new accounts until killed; prints "ready" after the first commit.
  let engine = options.engine()
  var index = 0
  while true {
    index += 1
    let email = "churn-\(getpid())-\(index)@example.com"
    _ = try? await engine.signUp(email: email, password: "Password123", data: [:])
    if index == 1 { emit("ready") }
  }

case "bench-signin":
  await SignInBenchmark(options: options).run()

case "bench-timing":
  await TimingBenchmark(options: options).run()

case "bench-grants":
  await GrantBenchmark(options: options).run()

case "bench-bcrypt":
  // One bcrypt check at --cost, timed --iterations times on one thread: the unit of the bound
  // that `authflow serve`'s sign-in rate is compared against (cores / one check).
  let cost = options.int("cost", default: 10)
  let password = "BenchPassword123"
  guard let hash = try? Bcrypt.hash(password, cost: cost, random: SystemRandom()) else {
    fail("cannot hash at cost \(cost)")
  }
  var times: [Double] = []
  for _ in 0..<max(1, options.int("iterations", default: 20)) {
    let start = ContinuousClock.now
    guard Bcrypt.verify(password, against: hash) else { fail("bcrypt verify failed") }
    let elapsed = ContinuousClock.now - start
    times.append(
      Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3)
  }
  times.sort()
  emit("cost=\(cost) verify_ms=\(times[times.count / 2]) iterations=\(times.count)")

case "postgres":
  // Connects to --url, makes the store's schemas where missing, and says what it found: the
  // check that a build's libpq (the static release's too) reaches a server.
  do {
    let connection = try PostgresConnection(url: PostgresURL(options.string("url")))
    let origin = try PostgresSchemaSetup.prepare(connection)
    let version = try connection.first("show server_version") { row throws(AccountStoreError) in
      try row.text(0)
    }
    emit("PostgreSQL \(version ?? "?"): auth schema \(origin == .madeNow ? "made" : "found")")
  } catch {
    fail("\(error)")
  }

case "sql-user-columns":
  // The store's own SQL the PostgreSQL benchmark runs beside pgbench, so its reference is the
  // server's statements as they are, never a copy.
  emit(PostgresConnection.userColumns)

case "sql-user-tables":
  emit(PostgresConnection.userTables)

default:
  fail(
    "usage: authflow-lab signup|open|churn|bench-signin|bench-timing|bench-grants|bench-bcrypt"
      + "|sql-user-columns|sql-user-tables|postgres "
      + "[--store PATH | --url postgresql://…] [options]"
  )
}
