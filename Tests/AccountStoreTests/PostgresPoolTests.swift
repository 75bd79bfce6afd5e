import AccountStore
import Foundation
import PostgresTestSupport
import Synchronization
import Testing

/// The pool: connections lent one caller at a time, broken ones replaced, waits bounded.
struct PostgresPoolTests {
  @Test func aConnectionIsOpenedOnceAndLentAgain() throws {
    let pool = PostgresPool(url: try makePostgresDatabase(), size: 3)
    #expect(pool.openCount == 0)
    let first = try pool.withConnection { connection throws(AccountStoreError) in
      connection.backendPID
    }
    let second = try pool.withConnection { connection throws(AccountStoreError) in
      connection.backendPID
    }
    #expect(first == second)
    #expect(pool.openCount == 1)
  }

  @Test func aBrokenConnectionIsReplaced() throws {
    let url = try makePostgresDatabase()
    let pool = PostgresPool(url: url, size: 1)
    let killer = try PostgresConnection(url: url)
    let error = storeError {
      try pool.withConnection { connection throws(AccountStoreError) in
        try killer.query(
          "select pg_terminate_backend($1, 5000)", .integer(Int64(connection.backendPID)))
        try connection.execute("select 1")
      }
    }
    #expect(error?.kind == .unavailable)
    #expect(pool.openCount == 0)
    let answer = try pool.withConnection { connection throws(AccountStoreError) in
      try connection.column("select 1")
    }
    #expect(answer == ["1"])
    #expect(pool.openCount == 1)
  }

  @Test func anIdleConnectionTheServerEndedIsReplacedBeforeItIsLent() throws {
    let url = try makePostgresDatabase()
    let pool = PostgresPool(url: url, size: 1)
    let killer = try PostgresConnection(url: url)
    let victim = try pool.withConnection { connection throws(AccountStoreError) in
      connection.backendPID
    }
    // pg_terminate_backend with a timeout returns once the server process has ended, after
    // it sent its farewell: the pool finds it when it next lends the connection.
    #expect(try killer.column("select pg_terminate_backend(\(victim), 5000)") == ["t"])
    let replacement = try pool.withConnection { connection throws(AccountStoreError) in
      try connection.first("select pg_backend_pid()") { row throws(AccountStoreError) in
        try row.int64(0)
      }
    }
    #expect(replacement != nil)
    #expect(replacement != Int64(victim))
    #expect(pool.openCount == 1)
  }

  @Test func aWaiterGivesUpAtItsDeadline() throws {
    let pool = PostgresPool(url: try makePostgresDatabase(), size: 1)
    let started = Date()
    let error = storeError {
      try pool.withConnection { _ throws(AccountStoreError) in
        try pool.withConnection(waitingAtMost: 0.2) { _ throws(AccountStoreError) in }
      }
    }
    let waited = Date().timeIntervalSince(started)
    #expect(error?.kind == .unavailable)
    #expect(error?.message == "no PostgreSQL connection came free in time (all 1 are in use)")
    #expect(waited >= 0.2)
    #expect(waited < 5)
  }

  @Test func aWaiterGetsTheConnectionAnotherGivesBack() throws {
    let pool = PostgresPool(url: try makePostgresDatabase(), size: 1)
    let holding = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let holder = Thread {
      try? pool.withConnection { _ throws(AccountStoreError) in
        holding.signal()
        release.wait()
      }
    }
    holder.start()
    holding.wait()
    // Lets the holder go once this thread waits for the connection.
    Thread {
      let deadline = Date().addingTimeInterval(30)
      while pool.waiters == 0, Date() < deadline { usleep(1_000) }
      release.signal()
    }.start()
    let value = try pool.withConnection(waitingAtMost: 30) { connection throws(AccountStoreError) in
      try connection.column("select 7")
    }
    #expect(value == ["7"])
    #expect(pool.openCount == 1)
    #expect(pool.waiters == 0)
  }

  @Test func aTransactionLeftOpenIsRolledBackWhenTheConnectionReturns() throws {
    let pool = PostgresPool(url: try makePostgresDatabase(), size: 1)
    try pool.withConnection { connection throws(AccountStoreError) in
      try connection.execute("create table t (x int)")
      try connection.begin(.readCommitted)
      try connection.execute("insert into t values (1)")
    }
    let rows = try pool.withConnection { connection throws(AccountStoreError) in
      (connection.isInTransaction, try connection.column("select count(*) from t"))
    }
    #expect(rows.0 == false)
    #expect(rows.1 == ["0"])
  }

  @Test func manyThreadsShareASmallPool() throws {
    let pool = PostgresPool(url: try makePostgresDatabase(), size: 2)
    try pool.withConnection { connection throws(AccountStoreError) in
      try connection.execute("create table t (x int8)")
    }
    let failures = Mutex(0)
    let group = DispatchGroup()
    for index in 0..<8 {
      group.enter()
      Thread {
        defer { group.leave() }
        for step in 0..<10 {
          do {
            try pool.withConnection(waitingAtMost: 30) { connection throws(AccountStoreError) in
              try connection.query("insert into t values ($1)", .integer(Int64(index * 10 + step)))
            }
          } catch {
            failures.withLock { $0 += 1 }
          }
        }
      }.start()
    }
    #expect(group.wait(timeout: .now() + 60) == .success)
    #expect(failures.withLock { $0 } == 0)
    let count = try pool.withConnection { connection throws(AccountStoreError) in
      try connection.column("select count(*) from t")
    }
    #expect(count == ["80"])
    #expect(pool.openCount <= 2)
  }
}
