import Observation

/// An observer as a UI framework keeps one: it reads through `withObservationTracking` and,
/// on every change, counts it and registers again at once (synchronously, inside the change
/// notification, so the cost lands in the send that caused it).
@MainActor
final class ReregisteringObserver {
  private(set) var changes = 0
  private let read: @MainActor () -> Void
  private var isActive = true

  init(reading read: @escaping @MainActor () -> Void) {
    self.read = read
    track()
  }

  /// Stops registering again after the next change.
  func stop() {
    isActive = false
  }

  private func track() {
    withObservationTracking {
      read()
    } onChange: { [weak self] in
      MainActor.assumeIsolated { self?.changed() }
    }
  }

  private func changed() {
    changes += 1
    if isActive { track() }
  }
}
