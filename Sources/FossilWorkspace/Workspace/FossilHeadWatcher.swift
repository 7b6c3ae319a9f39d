import ComposableCore
import ComposableWorkspace
import Foundation
import WorkspaceHTTP

/// Watches a branch's newest check-in, for a "refresh available" notice. Fossil 2.21 has no
/// server-sent events, so it polls (`/json/artifact?name=tag:<branch>`, one public call per
/// look: polling never ends the session) — on a shared server every look is a forked fossil
/// process, so it looks as seldom as a person would notice: ``interval`` after a change, then
/// longer and longer while nothing changes (``idle``, up to ``idleMaximum``, with jitter so
/// clients do not look together), and after a failure as ``backoff`` says — all on the
/// `\.clock` dependency, so tests drive it with a `TestClock`. With the defaults an idle
/// client looks about 8 times in its first minute and twice a minute after that.
///
/// ```swift
/// for await update in FossilHeadWatcher(session: session).updates(of: "trunk") {
///   if case .head(let revision) = update, revision != baseline.revision {
///     print("trunk moved — refresh available")
///   }
/// }
/// ```
public struct FossilHeadWatcher: Sendable {
  /// The session polled through.
  public let session: FossilSession
  /// The shortest wait between two looks (after a look that saw a change).
  public var interval: Duration
  /// The longest wait between two looks while nothing changes.
  public var idleMaximum: Duration
  /// The waits after consecutive failures.
  public var backoff: Backoff

  public init(
    session: FossilSession, interval: Duration = .seconds(2),
    idleMaximum: Duration = .seconds(30),
    backoff: Backoff = Backoff(initial: .seconds(1), maximum: .seconds(60))
  ) {
    self.session = session
    self.interval = interval
    self.idleMaximum = idleMaximum
    self.backoff = backoff
  }

  /// The waits while nothing changes: ``interval`` growing 1.5× per unchanged look up to
  /// ``idleMaximum``, plus up to 20 % at random (never shorter than ``interval``).
  public var idle: Backoff {
    Backoff(
      initial: interval, multiplier: 1.5, minimum: interval,
      maximum: max(interval, idleMaximum) * 1.2, jitter: 0.2)
  }

  /// The branch's newest check-in, first as found and then each time it changes, and each
  /// failed look with the wait before the next. Polling stops when the consumer stops
  /// iterating.
  public func updates(of branch: BranchName) -> AsyncStream<FossilHeadUpdate> {
    let clock = DependencyValues.current.clock
    let (stream, continuation) = AsyncStream.makeStream(of: FossilHeadUpdate.self)
    let task = Task {
      var last: String?
      var failures = 0
      var unchanged = 0
      let idle = self.idle
      while !Task.isCancelled {
        // Each wait's deadline is fixed before it is reported, so a test may advance a
        // TestClock as soon as it hears of the wait.
        let wait: @Sendable () async throws -> Void
        do {
          let head = try await self.head(of: branch)
          failures = 0
          if head != last {
            last = head
            unchanged = 0
            continuation.yield(.head(head))
          } else {
            unchanged += 1
          }
          wait = clock.sleep(endingIn: idle.delay(afterFailures: unchanged + 1))
        } catch {
          guard !Task.isCancelled, !(error is CancellationError) else { break }
          failures += 1
          let delay = backoff.delay(afterFailures: failures)
          wait = clock.sleep(endingIn: delay)
          continuation.yield(.waiting(failures: failures, delay: delay, reason: "\(error)"))
        }
        do { try await wait() } catch { break }
      }
      continuation.finish()
    }
    continuation.onTermination = { _ in task.cancel() }
    return stream
  }

  private func head(of branch: BranchName) async throws -> String {
    struct CheckIn: Decodable { var uuid: String }
    let request = HTTPRequest.get(
      "/json/artifact", query: [URLQueryItem(name: "name", value: "tag:\(branch.rawValue)")],
      access: .public)
    return try await session.json(request, as: CheckIn.self).uuid
  }
}

/// What a ``FossilHeadWatcher`` saw.
public enum FossilHeadUpdate: Hashable, Sendable {
  /// The branch's newest check-in (first seen, or changed).
  case head(String)
  /// A look failed (`failures` in a row); the next one is in `delay`.
  case waiting(failures: Int, delay: Duration, reason: String)
}
