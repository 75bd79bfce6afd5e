import AuthCrypto
import Clocks
import GoTrue
import GoTrueEngine

#if canImport(Glibc)
  import Glibc
#endif

/// Grants per second of the engine, side by side: refresh-token rotations, PKCE code exchanges
/// (the codes made beforehand, each by a recovery with a challenge and its link followed,
/// untimed) and TOTP verifications (each client verifying its own factor; a code counts once,
/// so between batches the clock moves on a step and the challenges are made, untimed). Each
/// round times the three with `--clients` concurrent clients, in turn, so a busy machine slows
/// all alike; the figures are the medians of the rounds.
struct GrantBenchmark {
  let options: LabOptions
  static let verifier = "bench-verifier-0123456789-0123456789-0123456789"
  static let challenge = PKCEChallenge(
    challenge: Base64URL.encode(SHA256.hash(verifier)), method: .s256)

  func run() async {
    let clients = options.int("clients", default: 8)
    let grants = options.int("grants", default: 2_000)
    let rounds = options.int("rounds", default: 3)
    let folder = "/tmp/authflow-bench-grants-\(getpid())"
    mkdir(folder, 0o700)
    defer {
      for suffix in ["", "-wal", "-shm"] { unlink("\(folder)/auth.db\(suffix)") }
      rmdir(folder)
    }
    let engine = options.engine(store: "\(folder)/auth.db") {
      $0.autoconfirm = true
      $0.emailInterval = 0
      $0.emailLinks = .server(externalURL: "http://127.0.0.1:9999")
    }
    let emails = (0..<clients).map { "grants\($0)@bench.example" }
    do {
      for email in emails {
        _ = try await engine.signUp(email: email, password: "BenchPassword123", data: [:])
      }
    } catch {
      fail("sign-up: \(error)")
    }
    let totp = await TOTPClients(folder: folder, count: clients, options: options)
    var refreshRates: [Double] = []
    var pkceRates: [Double] = []
    var totpRates: [Double] = []
    for _ in 0..<rounds {
      refreshRates.append(await refreshRate(engine, emails: emails, grants: grants))
      pkceRates.append(await pkceRate(engine, emails: emails, grants: grants))
      totpRates.append(await totp.verifyRate(grants: grants))
    }
    let refresh = median(refreshRates)
    let pkce = median(pkceRates)
    let verifies = median(totpRates)
    emit(
      "clients=\(clients) grants=\(grants) rounds=\(rounds) refresh_per_s=\(Int(refresh)) "
        + "pkce_per_s=\(Int(pkce)) pkce_ratio=\(hundredths(pkce / refresh)) "
        + "totp_verify_per_s=\(Int(verifies)) totp_ratio=\(hundredths(verifies / refresh))")
  }

  private func hundredths(_ value: Double) -> Double { (value * 100).rounded() / 100 }

  /// `grants` refresh grants, shared out over one client per email, each rotating its own.
  private func refreshRate(_ engine: EmbeddedGoTrue, emails: [String], grants: Int) async
    -> Double
  {
    var tokens: [String] = []
    for email in emails {
      guard let session = try? await engine.signIn(email: email, password: "BenchPassword123")
      else { fail("sign-in of \(email) failed") }
      tokens.append(session.refreshToken)
    }
    let each = max(1, grants / emails.count)
    return await Self.timed(count: each * emails.count) {
      await withTaskGroup(of: Void.self) { group in
        for token in tokens {
          group.addTask {
            var token = token
            for _ in 0..<each {
              guard let session = try? await engine.refresh(refreshToken: token) else {
                fail("a refresh grant failed")
              }
              token = session.refreshToken
            }
          }
        }
      }
    }
  }

  /// `grants` PKCE exchanges of codes made beforehand, one client per email.
  private func pkceRate(_ engine: EmbeddedGoTrue, emails: [String], grants: Int) async -> Double {
    let each = max(1, grants / emails.count)
    var codes: [[String]] = []
    for email in emails {
      var mine: [String] = []
      for _ in 0..<each {
        mine.append(await authCode(engine, email: email))
      }
      codes.append(mine)
    }
    return await Self.timed(count: each * emails.count) {
      await withTaskGroup(of: Void.self) { group in
        for mine in codes {
          group.addTask {
            for code in mine {
              guard (try? await engine.exchangeAuthCode(code, verifier: Self.verifier)) != nil
              else { fail("a PKCE exchange failed") }
            }
          }
        }
      }
    }
  }

  /// The auth code of a recovery begun with the challenge and its link followed.
  private func authCode(_ engine: EmbeddedGoTrue, email: String) async -> String {
    do {
      try await engine.recover(email: email, redirectTo: nil, pkce: Self.challenge)
      guard let link = engine.outbox.newest(to: email)?.link,
        let token = link.split(separator: "token=").last?.split(separator: "&").first,
        case .authorizationCode(let code) = try await engine.verifyLink(
          type: .recovery, tokenHash: String(token), inBrowser: true)
      else { fail("no auth code for \(email)") }
      return code
    } catch {
      fail("a PKCE flow failed: \(error)")
    }
  }

  fileprivate static func timed(count: Int, _ body: () async -> Void) async -> Double {
    let start = ContinuousClock.now
    await body()
    let elapsed = ContinuousClock.now - start
    let seconds =
      Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return Double(count) / seconds
  }

  private func median(_ values: [Double]) -> Double {
    values.sorted()[values.count / 2]
  }
}

/// Clients with a verified TOTP factor each, on an engine of their own whose clock the
/// benchmark moves (a code is accepted once per time step).
private struct TOTPClients {
  let engine: EmbeddedGoTrue
  let clock: AdjustableClock
  let clients: [(token: String, factor: String, totp: TOTP)]

  init(folder: String, count: Int, options: LabOptions) async {
    clock = AdjustableClock(fixedAt: .now)
    engine = options.engine(store: "\(folder)/totp.db", clock: clock) {
      $0.autoconfirm = true
      // The clock moves a step per batch: the sessions must outlive the run.
      $0.accessTokenLifetime = 30 * 86_400
    }
    var clients: [(token: String, factor: String, totp: TOTP)] = []
    do {
      for index in 0..<count {
        guard
          case .session(let session) = try await engine.signUp(
            email: "totp\(index)@bench.example", password: "BenchPassword123", data: [:])
        else { fail("sign-up gave no session") }
        let enrolled = try await engine.enrollTOTP(
          accessToken: session.accessToken, friendlyName: "bench", issuer: "authflow")
        guard let setup = enrolled.totp, let secret = Base32.decode(setup.secret) else {
          fail("bad TOTP secret")
        }
        clients.append((session.accessToken, enrolled.id, TOTP(secret: secret)))
      }
    } catch {
      fail("TOTP set-up: \(error)")
    }
    self.clients = clients
  }

  /// About `grants` verifications, in batches of one per client.
  func verifyRate(grants: Int) async -> Double {
    let batches = max(1, grants / clients.count)
    var seconds = 0.0
    for _ in 0..<batches {
      clock.advance(by: 30)
      let now = Int64(clock.now.timeIntervalSince1970)
      var challenges: [String] = []
      for client in clients {
        guard
          let challenge = try? engine.challengeFactor(
            accessToken: client.token, factorID: client.factor, clientIP: "127.0.0.1")
        else { fail("a TOTP challenge failed") }
        challenges.append(challenge.id)
      }
      let rate = await GrantBenchmark.timed(count: clients.count) {
        await withTaskGroup(of: Void.self) { group in
          for (client, challenge) in zip(clients, challenges) {
            group.addTask {
              guard
                (try? await engine.verifyFactor(
                  accessToken: client.token, factorID: client.factor, challengeID: challenge,
                  code: client.totp.code(at: now), clientIP: "127.0.0.1")) != nil
              else { fail("a TOTP verification failed") }
            }
          }
        }
      }
      seconds += Double(clients.count) / rate
    }
    return Double(batches * clients.count) / seconds
  }
}
