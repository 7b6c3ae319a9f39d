import ComposableCore
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A child process spawned with `posix_spawn`, its standard output and error on pipes.
///
/// `Foundation.Process` is not used: on Linux (Swift 6.3.1) its `run()` intermittently
/// crashes reading past a `dirent` (swift-corelibs-foundation PR #5472), changes the whole
/// process's working directory to honour `currentDirectoryURL`, and lets the child inherit
/// the spawning Dispatch thread's blocked signals (so SIGTERM cannot stop it). Here the child
/// gets an empty signal mask, default dispositions for the termination signals, its own
/// process group (so cancellation reaches git's own children too), and no inherited
/// descriptors besides its three standard ones.
///
/// On Linux the child also dies with its parent: it is started through `setpriv --pdeathsig
/// TERM` (util-linux, on every Debian system), from ``SpawnThread`` (the parent-death signal
/// is tied to the spawning thread), so a `git push` does not go on after the process that
/// asked for it was killed. This is a safeguard, not a guarantee (a child whose parent dies
/// before `setpriv` sets the signal, or a grandchild, survives); callers that need to know
/// what happened keep their intent durable and ask the remote.
final class ChildProcess: @unchecked Sendable {
  let pid: pid_t
  /// Who a termination signal goes to.
  let termination: ProcessTermination
  private let output: Int32
  private let error: Int32
  private let lock = NSLock()
  private var reaped = false

  private init(pid: pid_t, termination: ProcessTermination, output: Int32, error: Int32) {
    self.pid = pid
    self.termination = termination
    self.output = output
    self.error = error
  }

  /// Starts `executable` (an absolute path). `input` is a readable descriptor for standard
  /// input (`/dev/null` when `nil`); the caller keeps ownership of it. `termination` says
  /// who its termination signals reach.
  static func spawn(
    executable: String, arguments: [String], environment: [String: String], input: Int32?,
    termination: ProcessTermination = .processGroup
  ) async throws -> ChildProcess {
    var wrapped = (executable: executable, arguments: arguments)
    if let setpriv = parentDeathWrapper {
      // The wrapper would start even when the executable cannot: check it here, so that is
      // still a launch error.
      guard access(executable, X_OK) == 0 else { throw launchError(executable) }
      wrapped = (setpriv, ["--pdeathsig", "TERM", "--", executable] + arguments)
    }
    let command = wrapped
    let spawned = await SpawnThread.shared.run {
      Result {
        try spawnHere(
          executable: command.executable, arguments: command.arguments,
          environment: environment, input: input, termination: termination)
      }
    }
    return try spawned.get()
  }

  /// `setpriv`, when the system has it (Linux); `nil` elsewhere.
  static let parentDeathWrapper: String? = {
    #if os(Linux)
      return ["/usr/bin/setpriv", "/bin/setpriv"].first { access($0, X_OK) == 0 }
    #else
      return nil
    #endif
  }()

  private static func spawnHere(
    executable: String, arguments: [String], environment: [String: String], input: Int32?,
    termination: ProcessTermination
  ) throws -> ChildProcess {
    guard !registry.current.closed else {
      throw ProcessLaunchError(executable: executable, reason: "the process is exiting")
    }
    let output = try makePipe()
    let error: (read: Int32, write: Int32)
    do {
      error = try makePipe()
    } catch {
      close(output.read)
      close(output.write)
      throw error
    }
    let devNull = open("/dev/null", O_RDONLY | O_CLOEXEC)
    defer {
      close(output.write)
      close(error.write)
      if devNull >= 0 { close(devNull) }
    }

    #if canImport(Darwin)
      var actions: posix_spawn_file_actions_t? = nil
      var attributes: posix_spawnattr_t? = nil
    #else
      var actions = posix_spawn_file_actions_t()
      var attributes = posix_spawnattr_t()
    #endif
    posix_spawn_file_actions_init(&actions)
    posix_spawnattr_init(&attributes)
    defer {
      posix_spawn_file_actions_destroy(&actions)
      posix_spawnattr_destroy(&attributes)
    }
    posix_spawn_file_actions_adddup2(&actions, input ?? devNull, 0)
    posix_spawn_file_actions_adddup2(&actions, output.write, 1)
    posix_spawn_file_actions_adddup2(&actions, error.write, 2)

    var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP)
    #if canImport(Darwin)
      flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
    #else
      // Emulate CLOEXEC_DEFAULT: close every inherited descriptor not already close-on-exec.
      for descriptor in inheritableDescriptors() {
        posix_spawn_file_actions_addclose(&actions, descriptor)
      }
    #endif
    posix_spawnattr_setflags(&attributes, Int16(flags))
    posix_spawnattr_setpgroup(&attributes, 0)
    var mask = sigset_t()
    sigemptyset(&mask)
    posix_spawnattr_setsigmask(&attributes, &mask)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGCHLD, SIGALRM] {
      sigaddset(&defaults, signal)
    }
    posix_spawnattr_setsigdefault(&attributes, &defaults)

    var pid = pid_t()
    let argv = ([executable] + arguments).map { strdup($0) }
    let envp = environment.map { strdup("\($0.key)=\($0.value)") }
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    let status = posix_spawn(&pid, executable, &actions, &attributes, argv + [nil], envp + [nil])
    guard status == 0 else {
      close(output.read)
      close(error.read)
      throw ProcessLaunchError(executable: executable, reason: String(cString: strerror(status)))
    }
    let child = ChildProcess(
      pid: pid, termination: termination, output: output.read, error: error.read)
    registry.withValue { $0.running[pid] = child }
    return child
  }

  /// The children started and not reaped yet, and whether starting more is over.
  private struct Registry {
    var running: [pid_t: ChildProcess] = [:]
    var closed = false
  }

  private static let registry = LockIsolated(Registry())

  /// Ends every running child: SIGTERM to each one's process group, then SIGKILL to those
  /// still there after `grace`; returns when all were reaped, or after twice `grace`. From then
  /// on no child is started (``spawn(executable:arguments:environment:input:)`` throws).
  /// Blocks the calling thread (for a process about to exit).
  static func terminateAll(grace: TimeInterval) {
    // On the spawner thread, so every spawn before this is registered and none comes after.
    SpawnThread.shared.runAndWait { registry.withValue { $0.closed = true } }
    for signal in [SIGTERM, SIGKILL] {
      for child in registry.current.running.values { _ = child.send(signal) }
      let deadline = Date().addingTimeInterval(grace)
      // sync-wait: a signal-handling thread as the process ends; bounded by twice `grace`
      while !registry.current.running.isEmpty, Date() < deadline { usleep(20_000) }
      if registry.current.running.isEmpty { return }
    }
  }

  /// Blocks until both pipes reached end of file and the child was reaped; answers its
  /// status (the exit code, or the signal number that killed it) and outputs.
  func collect() -> ProcessResult {
    var collected = [Data(), Data()]
    var descriptors = [
      pollfd(fd: output, events: Int16(POLLIN), revents: 0),
      pollfd(fd: error, events: Int16(POLLIN), revents: 0),
    ]
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while descriptors.contains(where: { $0.fd >= 0 }) {
      // sync-wait: ProcessRunner.collect's own queue (withBlockingWork), until the child ends
      if poll(&descriptors, nfds_t(descriptors.count), -1) < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        break
      }
      for index in descriptors.indices
      where descriptors[index].fd >= 0 && descriptors[index].revents != 0 {
        let descriptor = descriptors[index].fd
        // sync-wait: ProcessRunner.collect's own queue; poll said the pipe is readable
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count > 0 {
          collected[index].append(contentsOf: buffer[0..<count])
        } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
          close(descriptor)
          descriptors[index].fd = -1
        }
      }
    }
    for descriptor in descriptors where descriptor.fd >= 0 { close(descriptor.fd) }

    var status: Int32 = 0
    // sync-wait: ProcessRunner.collect's own queue; both pipes closed, the child is ending
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    lock.lock()
    reaped = true
    lock.unlock()
    Self.registry.withValue { $0.running[pid] = nil }
    let signal = status & 0x7f
    let code = signal == 0 ? (status >> 8) & 0xff : signal
    return ProcessResult(
      status: code, signal: signal == 0 ? nil : signal, standardOutput: collected[0],
      standardError: collected[1])
  }

  /// Sends SIGTERM to the child's process group, then SIGKILL after `grace` if it has not
  /// been reaped by then.
  func terminate(grace: DispatchTimeInterval = .seconds(3)) {
    guard send(SIGTERM) else { return }
    DispatchQueue.global().asyncAfter(deadline: .now() + grace) { [self] in
      _ = send(SIGKILL)
    }
  }

  private func send(_ signal: Int32) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    guard !reaped else { return false }
    kill(termination == .processGroup ? -pid : pid, signal)
    return true
  }

  private static func makePipe() throws -> (read: Int32, write: Int32) {
    var descriptors: [Int32] = [-1, -1]
    // (pipe2 is not visible from Swift's Glibc module.) Children spawned meanwhile by this
    // runner close the descriptors anyway; see `inheritableDescriptors()`.
    guard pipe(&descriptors) == 0 else { throw launchError("pipe") }
    _ = fcntl(descriptors[0], F_SETFD, FD_CLOEXEC)
    _ = fcntl(descriptors[1], F_SETFD, FD_CLOEXEC)
    return (descriptors[0], descriptors[1])
  }

  private static func launchError(_ call: String) -> ProcessLaunchError {
    ProcessLaunchError(executable: call, reason: String(cString: strerror(errno)))
  }

  #if !canImport(Darwin)
    /// Open descriptors above 2 that a child would inherit (not close-on-exec).
    private static func inheritableDescriptors() -> [Int32] {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
      return names.compactMap(Int32.init).filter { descriptor in
        guard descriptor > 2 else { return false }
        let flags = fcntl(descriptor, F_GETFD)
        return flags >= 0 && flags & FD_CLOEXEC == 0
      }
    }
  #endif
}
