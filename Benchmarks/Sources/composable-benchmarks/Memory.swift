import Foundation

/// Resident memory of this process, from /proc/self/status (Linux).
enum ResidentMemory {
  /// Current resident set size (VmRSS), in bytes; `nil` where /proc is unavailable.
  static var current: Int? { field("VmRSS") }

  /// Peak resident set size (VmHWM) since start or the last ``resetPeak()``, in bytes.
  static var peak: Int? { field("VmHWM") }

  /// Resets the peak to the current size (writes 5 to /proc/self/clear_refs). Returns
  /// whether the kernel accepted it.
  @discardableResult
  static func resetPeak() -> Bool {
    guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
    defer { try? handle.close() }
    do {
      try handle.write(contentsOf: Data("5".utf8))
      return true
    } catch {
      return false
    }
  }

  private static func field(_ name: String) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
      return nil
    }
    for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
      // "VmRSS:     12345 kB"
      let parts = line.split(separator: " ", omittingEmptySubsequences: true)
      guard parts.count >= 2, let kilobytes = Int(parts[1]) else { return nil }
      return kilobytes * 1024
    }
    return nil
  }
}

/// Resident growth over one repetition: the peak resident set (VmHWM, reset at the start, or
/// VmRSS when sampled, whichever is larger) minus VmRSS at the start.
struct ResidentGrowth {
  private let before: Int
  private var sampled = 0

  init() {
    before = ResidentMemory.current ?? 0
    ResidentMemory.resetPeak()
  }

  /// Takes VmRSS now (at the moment the repetition holds the most).
  mutating func sample() {
    sampled = max(sampled, ResidentMemory.current ?? 0)
  }

  /// The growth so far, in MB (2^20 bytes).
  func megabytes() -> Double {
    Double(max(ResidentMemory.peak ?? 0, sampled) - before) / 1_048_576
  }
}
