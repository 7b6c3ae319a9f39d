/// What a root store and every store scoped from it share: how many batches the root has
/// finished, and which scoped stores are observed.
///
/// A scoped store compares the batch count with the one it derived its state at, so an
/// unobserved scoped store is never visited when the root reduces: it derives again on its
/// next read. Observed scoped stores are refreshed once at the end of each batch (derived,
/// compared, notified when changed), until they are notified; reading one again observes it
/// again.
@MainActor
@usableFromInline
final class StoreTree {
  // Touched only on the main actor, never by overlapping accesses: no dynamic exclusivity
  // checks (they would be a large share of a scoped send).
  /// Batches the root store has finished.
  @exclusivity(unchecked) @usableFromInline var batches: UInt = 0
  /// One refresh per observed scoped store, in the order they became observed.
  @exclusivity(unchecked) @usableFromInline var observedScopes: [ObservedScope] = []
  /// The root store's `isObserved`, mirrored where the end of a batch can read it without
  /// loading the root store (held weakly by its engine): a weak load, and the release of what
  /// it loads, were half the cost of an unobserved send.
  @exclusivity(unchecked) @usableFromInline var rootIsObserved = false

  @usableFromInline
  init() {}

  /// Refreshes every observed scoped store, after the root notified its own observers.
  /// Stores that become observed meanwhile (an observer registering again while it is
  /// notified) are kept for the next batch, not refreshed now.
  @usableFromInline
  func refreshObservedScopes() {
    let end = observedScopes.count
    var kept = 0
    for index in 0..<end {
      let scope = observedScopes[index]
      guard scope.refresh() else { continue }
      if kept != index { observedScopes[kept] = scope }
      kept += 1
    }
    observedScopes.removeSubrange(kept..<end)
  }
}

/// How the root refreshes one observed scoped store at the end of a batch: derive, notify if
/// changed, and say whether it is still observed (`false` once notified, or released).
///
/// A struct rather than a bare closure in the array: a function stored in a generic container
/// is re-wrapped in a reabstraction thunk each time it is read and written back, so a closure
/// kept in the list over many batches would grow a chain of thunks, one per batch.
@usableFromInline
struct ObservedScope {
  @usableFromInline let refresh: () -> Bool

  @usableFromInline
  init(refresh: @escaping () -> Bool) {
    self.refresh = refresh
  }
}
