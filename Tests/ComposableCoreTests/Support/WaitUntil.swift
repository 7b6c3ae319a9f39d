import ComposableCore
import Observation

/// Waits (bounded, signalled by the store's observation) until `condition` holds.
@MainActor
func waitUntil(
  timeout: Duration = .seconds(15), _ condition: @escaping @MainActor () -> Bool
) async {
  let deadline = ContinuousClock.now.advanced(by: timeout)
  while !condition(), ContinuousClock.now < deadline {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let resumed = LockIsolated(false)
      let resume: @Sendable () -> Void = {
        if resumed.withValue({ done in
          defer { done = true }
          return !done
        }) {
          continuation.resume()
        }
      }
      let holds = withObservationTracking {
        condition()
      } onChange: {
        resume()
      }
      if holds { resume() }
      Task {
        try? await Task.sleep(until: deadline, clock: .continuous)
        resume()
      }
    }
  }
}
