import ComposableCore
import Foundation
import LoopbackSockets

/// A one-shot listener on 127.0.0.1 (a free port) for the browser's return from a sign-in:
/// it accepts only the return that carries this sign-in's `state`, answers every other
/// request (a forged or foreign return, a favicon) with an error page and keeps waiting, and
/// closes as soon as it has its answer.
///
/// ```swift
/// let listener = try LoopbackRedirectListener(state: state)
/// open(authorizationURL(redirectURI: listener.redirectURI, state: state))
/// let query = try await listener.waitForReturn(timeout: .seconds(300))
/// let code = query["code"]
/// ```
public final class LoopbackRedirectListener: Sendable {
  /// `http://127.0.0.1:<port><path>`: the redirect URI to register with the sign-in.
  public let redirectURI: URL
  private let listener: LoopbackListener
  private let outcome: LockIsolated<Outcome>

  private struct Outcome {
    var result: Result<[String: String], PKCESignInError>?
    var waiter: CheckedContinuation<[String: String], any Error>?
    var waitCancelled = false
  }

  /// Limits for what a browser sends to the listener: one small GET.
  private static let limits = HTTPRequestLimits(
    maxHeadBytes: 8 * 1024, maxHeaderCount: 64, maxBodyBytes: 0)

  /// Opens the listener at `path`, accepting only returns whose `state` is `state`. The page
  /// shown in the browser after the accepted return is `successPage` (HTML).
  public init(
    state: String, path: String = "/callback",
    successPage: String = "<!doctype html><title>Signed in</title>"
      + "<p>Signed in. You can close this window.</p>"
  ) throws {
    let outcome = LockIsolated(Outcome())
    self.outcome = outcome
    do {
      listener = try LoopbackListener { connection in
        // A browser's connection is read with blocking receives: a thread of its own.
        let thread = Thread {
          Self.serve(
            connection, path: path, state: state, successPage: successPage, outcome: outcome)
        }
        thread.name = "LoopbackRedirectListener.connection"
        thread.start()
      }
    } catch {
      throw PKCESignInError.listenerFailed(error.description)
    }
    redirectURI =
      URL(string: "http://127.0.0.1:\(listener.port)\(path)") ?? URL(fileURLWithPath: path)
  }

  /// The accepted return's query parameters (`code`, `state`, …). Throws
  /// ``PKCESignInError/denied(error:)`` when the return carries an `error`,
  /// ``PKCESignInError/timedOut(after:)`` when none came within `timeout` on the `\.clock`
  /// dependency, and `CancellationError` when cancelled. The listener is closed afterwards in
  /// every case.
  public func waitForReturn(timeout: Duration) async throws -> [String: String] {
    let clock = DependencyValues.current.clock
    let wait = clock.sleep(endingIn: timeout)
    do {
      let query = try await withThrowingTaskGroup(of: [String: String].self) { group in
        group.addTask { try await self.accepted() }
        group.addTask {
          try await wait()
          throw PKCESignInError.timedOut(after: timeout)
        }
        defer { group.cancelAll() }
        guard let query = try await group.next() else { throw CancellationError() }
        return query
      }
      await listener.stop()
      return query
    } catch {
      await listener.stop()
      throw error
    }
  }

  /// Closes the listener without waiting for a return.
  public func close() async {
    await listener.stop()
  }

  private func accepted() async throws -> [String: String] {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        // The cancellation handler may have run before this (a task cancelled early).
        let ready = outcome.withValue { outcome -> Result<[String: String], any Error>? in
          if outcome.waitCancelled { return .failure(CancellationError()) }
          guard let result = outcome.result else {
            outcome.waiter = continuation
            return nil
          }
          return result.mapError { $0 }
        }
        if let ready { continuation.resume(with: ready) }
      }
    } onCancel: {
      let waiter = outcome.withValue {
        outcome -> CheckedContinuation<[String: String], any Error>? in
        outcome.waitCancelled = true
        defer { outcome.waiter = nil }
        return outcome.waiter
      }
      waiter?.resume(throwing: CancellationError())
    }
  }

  /// Answers one browser connection; records the return if it is this sign-in's.
  private static func serve(
    _ connection: LoopbackConnection, path: String, state: String, successPage: String,
    outcome: LockIsolated<Outcome>
  ) {
    defer { connection.close() }
    connection.setReceiveTimeout(milliseconds: 5000)
    connection.setSendTimeout(milliseconds: 5000)
    var reader = HTTPRequestReader(connection: connection, limits: limits)
    let request: HTTPIncomingRequest
    do {
      guard let next = try reader.next() else { return }
      request = next
    } catch let rejection as HTTPRequestRejection {
      respond(connection, status: rejection.status, page: "<p>\(rejection.description)</p>")
      return
    } catch {
      return
    }
    let components = URLComponents(string: request.head.target)
    var query: [String: String] = [:]
    for item in components?.queryItems ?? [] where query[item.name] == nil {
      query[item.name] = item.value ?? ""
    }
    guard request.head.method == .get, components?.path == path,
      let returned = query["state"], constantTimeEquals(returned, state)
    else {
      respond(
        connection, status: 400, page: "<p>This is not the sign-in this app is waiting for.</p>")
      return
    }
    let result: Result<[String: String], PKCESignInError> =
      if let error = query["error"] {
        .failure(.denied(error: String(error.prefix(64))))
      } else {
        .success(query)
      }
    let waiter = outcome.withValue {
      outcome -> CheckedContinuation<[String: String], any Error>?? in
      guard outcome.result == nil else { return nil }
      outcome.result = result
      defer { outcome.waiter = nil }
      return .some(outcome.waiter)
    }
    guard let waiter else {
      respond(connection, status: 400, page: "<p>This sign-in has already completed.</p>")
      return
    }
    switch result {
    case .success: respond(connection, status: 200, page: successPage)
    case .failure: respond(connection, status: 200, page: "<p>The sign-in was not completed.</p>")
    }
    waiter?.resume(with: result.mapError { $0 })
  }

  private static func respond(_ connection: LoopbackConnection, status: Int, page: String) {
    let body = Array(page.utf8)
    let head =
      "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Error")\r\n"
      + "Content-Type: text/html; charset=utf-8\r\nContent-Length: \(body.count)\r\n"
      + "Cache-Control: no-store\r\nConnection: close\r\n\r\n"
    try? connection.send(Array(head.utf8) + body)
  }

  /// Compares without an early exit, so the time taken says nothing about a guess.
  private static func constantTimeEquals(_ left: String, _ right: String) -> Bool {
    let (a, b) = (Array(left.utf8), Array(right.utf8))
    guard a.count == b.count else { return false }
    return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
  }
}
