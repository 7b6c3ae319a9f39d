/// The store's record of one running effect: whether its operation has returned, and its entry
/// in the store's ``EffectRegistry`` (its task, its cancellation keys, and its place among the
/// running or draining effects).
///
/// The registry keeps its records in the records themselves (``EffectList``), so registering,
/// finishing and cancelling an effect touch no table but the one of its keys. A plain `.run`
/// effect's record is its `EffectRun`, which is also its input: one object per effect.
///
/// Everything here is guarded by the registry's lock (a record has no lock of its own). A
/// plain `.run` effect ends on the main actor, where its operation usually returns (after
/// sending its last action): marked finished and removed at once, under one lock
/// (`EffectRegistry.finishOnMainActor`). Other effects (a test store's, one whose captured
/// dependencies are not those in force, a concatenation) are marked finished from their own
/// thread the moment the operation returns, so "still running" checks never count an effect
/// that has only its bookkeeping left (a test store's exact waits count on it), and do the
/// bookkeeping on the main actor afterwards.
@usableFromInline
package class EffectLifetime: @unchecked Sendable {
  /// Where a record is in its registry.
  enum Place {
    /// Not registered yet.
    case unregistered
    /// Running, in flight under its keys.
    case inFlight
    /// Cancelled and not stopped yet: out of flight, still awaited by `TestStore.finish()`.
    case draining
    /// Stopped and removed.
    case ended
  }

  // The fields below are guarded by the registry's lock, so they skip the runtime's dynamic
  // exclusivity checks; `final`, so they are read directly, not through the class's table.
  let registry: EffectRegistry
  @exclusivity(unchecked) private final var finished = false
  @exclusivity(unchecked) final var place = Place.unregistered
  // The next two fit beside the flags above, in what would otherwise be padding.
  /// How many keys the effect runs under (saturating), so finishing or cancelling one reads
  /// no copy of ``keys`` for the common cases (none, one).
  @exclusivity(unchecked) final var keyCount: UInt16 = 0
  /// The record's position in its `StoreTask` box.
  @exclusivity(unchecked) final var positionInBox: UInt32 = 0
  /// Set when registered.
  @exclusivity(unchecked) final var task: Task<Void, Never>?
  @exclusivity(unchecked) final var keys = EffectKeys()
  /// The `StoreTask` box of the send the effect belongs to, until it ends (the box then
  /// forgets the record).
  @exclusivity(unchecked) final var box: StoreTask.Box?
  /// The links of the list the record is in (``EffectList``).
  @exclusivity(unchecked) final var next: EffectLifetime?
  @exclusivity(unchecked) final unowned(unsafe) var previous: EffectLifetime?

  @usableFromInline
  init(registry: EffectRegistry) {
    self.registry = registry
  }

  /// Whether the operation returned (or never ran, having been cancelled before it began).
  package final var isFinished: Bool { registry.withLock { finished } }

  /// ``isFinished`` for the registry, which holds its lock.
  final var isFinishedWhileLocked: Bool { finished }

  /// ``markFinished()`` for the registry, which holds its lock.
  final func markFinishedWhileLocked() { finished = true }

  /// Never inlined: inlined into an effect's task, it reads the registry before the hop back
  /// to the main actor, and the task's frame keeps that across the hop (8 bytes that can cost
  /// a suspended effect a second allocator slab).
  @inline(never)
  final func markFinished() { registry.withLock { finished = true } }
}
