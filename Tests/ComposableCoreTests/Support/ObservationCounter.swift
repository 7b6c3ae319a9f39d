import Observation

/// Counts how often `read`'s observed values change, re-registering after every change the way
/// a view would.
@MainActor
final class ObservationCounter {
  private(set) var count = 0
  private let read: @MainActor () -> Void

  init(_ read: @escaping @MainActor () -> Void) {
    self.read = read
    observe()
  }

  private func observe() {
    withObservationTracking {
      read()
    } onChange: {
      MainActor.assumeIsolated {
        self.count += 1
        self.observe()
      }
    }
  }
}
