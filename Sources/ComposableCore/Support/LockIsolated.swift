/// A value guarded by a lock, usable from any isolation domain.
///
/// `Synchronization.Mutex` needs macOS 15 / iOS 18; this package supports macOS 14 / iOS 17,
/// so the core guards shared mutable state with the platform's plain mutex instead.
///
/// ```swift
/// let counter = LockIsolated(0)
/// counter.withValue { $0 += 1 }
/// ```
public final class LockIsolated<Value>: @unchecked Sendable {
  private var value: Value
  private let lock = PlatformLock()

  /// Creates a lock-guarded box holding `value`.
  public init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` with exclusive access to the value and returns its result.
  @discardableResult
  public func withValue<T>(_ body: (inout Value) throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }

  /// Replaces the value.
  public func setValue(_ newValue: Value) {
    withValue { $0 = newValue }
  }
}

extension LockIsolated where Value: Sendable {
  /// A copy of the current value.
  public var current: Value {
    withValue { $0 }
  }
}
