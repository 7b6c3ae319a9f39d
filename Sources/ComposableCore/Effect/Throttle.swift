extension Effect {
  /// Starts this effect at most once per `interval` for `id`: the first at once, the others
  /// held back to the end of the window, as TCA's throttle emits.
  ///
  /// ```swift
  /// case .scrolled(let offset):
  ///   state.offset = offset
  ///   return .run { _ in try await client.savePosition(offset) }
  ///     .throttle(id: CancelID.savePosition, for: .seconds(1), latest: true)
  /// ```
  ///
  /// - When no throttled effect for `id` started (or is due to start) within the last
  ///   `interval`, this one starts at once and opens a window of `interval`.
  /// - One that arrives inside the window is deferred to the window's end, where it starts and
  ///   opens the next window. Only one is deferred: with `latest` a newer one replaces it;
  ///   without, the first is kept and later ones are dropped.
  /// - Starting a throttled effect cancels the previous one for `id` if its work still runs
  ///   (as TCA cancels in flight), so results never arrive out of order.
  /// - `.cancel(id:)` cancels the running and the deferred one; `isEffectInFlight(id)` is
  ///   `true` while one is deferred. Ids are scoped as for ``cancellable(id:cancelInFlight:)``.
  ///
  /// Time is measured on `clock`, by default the `\.clock` dependency in force when the effect
  /// is built (in the reduce that returns it); in a test a `TestClock` drives it. Throttling
  /// `.none` gives `.none`. Each store keeps its own windows.
  ///
  /// Unlike TCA, which throttles the actions an effect sends (its work always runs), this
  /// throttles when effects start: a dropped effect's work never runs.
  public func throttle(
    id: some Hashable & Sendable,
    for interval: Duration,
    clock: (any Clock<Duration>)? = nil,
    latest: Bool
  ) -> Self {
    if case .none = operation { return .none }
    let throttling = Throttling(interval: interval, latest: latest, clock: clock)
    return Self(.throttled(EffectKey(id: id), throttling, self))
  }
}

/// How an effect is throttled, with the context of the reduce that built it (for the delay of
/// a deferred effect, built later by the store).
@usableFromInline
struct Throttling: Sendable {
  let interval: Duration
  let latest: Bool
  let clock: any Clock<Duration>
  let dependencies: DependencyValues
  let reporters: [any IssueReporter]?

  init(interval: Duration, latest: Bool, clock: (any Clock<Duration>)?) {
    self.interval = interval
    self.latest = latest
    self.dependencies = DependencyValues.current
    self.reporters = IssueReporters.scoped
    self.clock = clock ?? dependencies.clock
  }

  /// An effect that runs `sleep`, built with the dependencies and reporters of the original
  /// reduce (so an unimplemented clock reports to the test that ran it).
  func delay<Action>(_ sleep: @escaping @Sendable () async throws -> Void) -> Effect<Action> {
    DependencyValues.install(dependencies) {
      IssueReporters.$scoped.withValue(reporters) {
        .run { _ in try await sleep() }
      }
    }
  }
}

/// Set when a deferred throttled effect's time came, so a window can tell an effect that
/// started (and may have finished since) from one cancelled before its time.
final class DeferredStart: Sendable {
  private let started = LockIsolated(false)

  func mark() { started.setValue(true) }
  var hasStarted: Bool { started.current }
}

/// The throttle windows of one store, by absolute effect key (scope path and id). Used by the
/// store on the main actor when it starts a throttled effect; a store that throttles nothing
/// keeps an empty dictionary.
struct ThrottleWindows {
  /// One window of time, on its throttle's clock.
  private struct Window {
    /// Time left until the window closes; `.zero` or less once it has.
    let remaining: () -> Duration
    /// Sleeps until the window closes.
    let sleepUntilClose: @Sendable () async throws -> Void
    /// The window after this one, opened by the effect deferred to this one's close.
    let next: () -> Window
    /// The generation of the effect deferred to the window's close, if one is.
    var deferred: UInt64?
    /// Whether that effect's time came (it started, and opened the next window).
    var deferredStart: DeferredStart?

    static func opening<C: Clock<Duration>>(on clock: C, interval: Duration) -> Window {
      closing(on: clock, at: clock.now.advanced(by: interval), interval: interval)
    }

    private static func closing<C: Clock<Duration>>(
      on clock: C, at deadline: C.Instant, interval: Duration
    ) -> Window {
      Window(
        remaining: { clock.now.duration(to: deadline) },
        sleepUntilClose: { try await clock.sleep(until: deadline, tolerance: nil) },
        next: { closing(on: clock, at: deadline.advanced(by: interval), interval: interval) },
        deferred: nil,
        deferredStart: nil
      )
    }
  }

  /// What the ids of a throttle's own bookkeeping stand for.
  private struct Role: Hashable, Sendable {
    enum Kind: Hashable, Sendable {
      case running
      case deferred(UInt64)
    }
    let id: AnyHashableSendable
    let kind: Kind
  }

  private var windows: [EffectKey: Window] = [:]
  private var lastGeneration: UInt64 = 0

  /// What to start now for a throttled `effect` under `key`: the effect itself, its start
  /// deferred to the window's close, or nothing (dropped). O(open windows).
  mutating func admit<Action>(
    _ effect: Effect<Action>, key: EffectKey, throttling: Throttling,
    isInFlight: (EffectKey) -> Bool
  ) -> Effect<Action>? {
    for (openKey, window) in windows {
      windows[openKey] = current(window, key: openKey, isInFlight: isInFlight)
    }
    guard var window = windows[key] else {
      windows[key] = Window.opening(on: throttling.clock, interval: throttling.interval)
      return Self.cancellable(starting(effect, key: key), key: key)
    }
    let replaced = window.deferred
    if replaced != nil, !throttling.latest { return nil }
    lastGeneration &+= 1
    let start = DeferredStart()
    window.deferred = lastGeneration
    window.deferredStart = start
    windows[key] = window
    let sleep = window.sleepUntilClose
    let delayed = Self.cancellable(
      .concatenate(
        throttling.delay {
          try await sleep()
          start.mark()
        },
        starting(effect, key: key)),
      key: Self.key(key, .deferred(lastGeneration)))
    guard let replaced else { return Self.cancellable(delayed, key: key) }
    let cancelReplaced = Effect<Action>(.cancel(EffectKeys(Self.key(key, .deferred(replaced)))))
    return Self.cancellable(.merge(cancelReplaced, delayed), key: key)
  }

  /// The window as it stands now, `nil` once closed: a deferred effect cancelled before its
  /// time opens nothing; one whose time came started at the close and opened the next window.
  private func current(
    _ window: Window, key: EffectKey, isInFlight: (EffectKey) -> Bool
  ) -> Window? {
    var window = window
    if let generation = window.deferred {
      let started = window.deferredStart?.hasStarted == true
      let pending = isInFlight(Self.key(key, .deferred(generation)))
      if started || (pending && window.remaining() <= .zero) {
        window = window.next()
      } else if !pending {
        // Cancelled before its time: it opens nothing, the window closes when it was due to.
        window.deferred = nil
        window.deferredStart = nil
      }
    }
    return window.remaining() > .zero ? window : nil
  }

  /// `effect` started as the throttle's running one, cancelling the previous if it still runs.
  private func starting<Action>(_ effect: Effect<Action>, key: EffectKey) -> Effect<Action> {
    Effect(.cancellable(Self.key(key, .running), cancelInFlight: true, effect))
  }

  private static func cancellable<Action>(
    _ effect: Effect<Action>, key: EffectKey
  ) -> Effect<Action> {
    Effect(.cancellable(key, cancelInFlight: false, effect))
  }

  private static func key(_ key: EffectKey, _ kind: Role.Kind) -> EffectKey {
    EffectKey(id: Role(id: key.id, kind: kind), path: key.path)
  }
}
