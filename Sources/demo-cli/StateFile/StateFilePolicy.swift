import Foundation

/// Which state files the tool uses: a regular file (never through a symbolic link), owned by
/// the user running the tool, that nobody else may read or write (the mode the tool writes,
/// 0600, or stricter). Anything else is refused with one line and left as it is; the line says
/// how to fix it when the user can.
enum StateFilePolicy {
  /// Why a file of this `type` (`S_IFMT` bits), `permissions` and `owner` cannot be used by
  /// `user`, or `nil` when it can.
  static func problem(type: mode_t, permissions: mode_t, owner: uid_t, user: uid_t) -> String? {
    guard type == S_IFREG else { return "it is not a regular file" }
    guard owner == user else {
      return "it belongs to another user (uid \(owner)), not to you (uid \(user))"
    }
    guard permissions & 0o077 == 0 else {
      let mode = String(permissions, radix: 8)
      return "others may read or write it (mode \(mode)) and it holds a session; "
        + "chmod 600 it to use it"
    }
    return nil
  }

  /// ``problem(type:permissions:owner:user:)`` for an open file.
  static func problem(ofOpenFile descriptor: Int32) -> String? {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return systemError() }
    return problem(
      type: status.st_mode & S_IFMT, permissions: status.st_mode & 0o7777, owner: status.st_uid,
      user: geteuid())
  }
}
