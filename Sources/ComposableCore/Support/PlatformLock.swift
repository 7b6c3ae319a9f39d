#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The platform's plain mutex (`os_unfair_lock` on Apple platforms, a `pthread_mutex_t`,
/// adaptive with glibc, elsewhere) in one allocation of its own: `NSLock` costs an object and,
/// on Linux, a mutex allocated beside it, and the core takes a lock for every effect.
///
/// Not recursive. Noncopyable: the one value owns the mutex and frees it when it ends (its
/// owner's `deinit`), so no copy can outlive it and nothing frees it twice.
///
/// ```swift
/// final class Counter: @unchecked Sendable {
///   private let lock = PlatformLock()
///   private var count = 0
///   func increment() { lock.withLock { count += 1 } }
/// }
/// ```
@usableFromInline
struct PlatformLock: ~Copyable, @unchecked Sendable {
  #if canImport(Darwin)
    @usableFromInline typealias Primitive = os_unfair_lock
  #else
    @usableFromInline typealias Primitive = pthread_mutex_t
  #endif

  @usableFromInline let primitive: UnsafeMutablePointer<Primitive>

  init() {
    primitive = .allocate(capacity: 1)
    #if canImport(Darwin)
      primitive.initialize(to: os_unfair_lock())
    #else
      primitive.initialize(to: pthread_mutex_t())
      var attributes = pthread_mutexattr_t()
      pthread_mutexattr_init(&attributes)
      #if canImport(Glibc)
        // Adaptive (glibc only): a thread that finds it held spins briefly before sleeping in
        // the kernel. The core's critical sections are a few table operations, and an effect
        // finishing on a worker thread while the main actor registers another otherwise costs
        // both a futex wait and wake (BENCHMARKS.md, "Effects at the runtime's floor").
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
      #endif
      let initialized = pthread_mutex_init(primitive, &attributes)
      pthread_mutexattr_destroy(&attributes)
      assert(initialized == 0, "pthread_mutex_init failed: \(initialized)")
    #endif
  }

  deinit {
    #if !canImport(Darwin)
      pthread_mutex_destroy(primitive)
    #endif
    primitive.deinitialize(count: 1)
    primitive.deallocate()
  }

  @inlinable
  func lock() {
    #if canImport(Darwin)
      os_unfair_lock_lock(primitive)
    #else
      pthread_mutex_lock(primitive)
    #endif
  }

  @inlinable
  func unlock() {
    #if canImport(Darwin)
      os_unfair_lock_unlock(primitive)
    #else
      pthread_mutex_unlock(primitive)
    #endif
  }

  /// Runs `body` holding the lock.
  @inlinable
  func withLock<R>(_ body: () throws -> R) rethrows -> R {
    lock()
    defer { unlock() }
    return try body()
  }
}
