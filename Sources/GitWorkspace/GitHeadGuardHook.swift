import Foundation
import ProcessSupport

/// A `reference-transaction` hook for a Git remote that makes the head rule of publication
/// exact (``GitHeadGuard/remoteEnforced``).
///
/// When a push creates a proposal ref (`<namespace>/<key>`), the hook, in the transaction's
/// `prepared` state (the proposal ref is locked, nothing written yet):
/// 1. reads the target branch from the proposal commit's `Proposal-Target` trailer (refusing a
///    proposal that names none, or no valid branch);
/// 2. takes that branch's own ref lock (`refs/heads/<branch>.lock`, created exclusively, as git
///    does), so no other push can move the branch until this transaction ends;
/// 3. refuses the proposal unless the branch is at the proposal commit's first parent.
/// It releases the lock when the transaction is `committed` or `aborted`. A push to the branch
/// while the lock is held is refused by git ("cannot lock ref"), and a proposal pushed while
/// the branch is being updated is refused ("is being updated; try again"). Other refs, and
/// deleting a proposal, pass untouched.
///
/// The lock names its holder (`head-guard <pid>` of the `git receive-pack` running the
/// transaction: the hook's nearest ancestor whose command names receive-pack, found in `/proc`
/// or with `ps`), and is released only by that holder. If the holder dies between the two
/// states (killed with its client), the lock is stale: the next proposal push finds the holder
/// gone and takes the lock over (one at a time, under a takeover lock), so the branch is never
/// wedged for good. A lock git itself holds (any other content) is never touched. Our clients
/// never signal the remote's side (``GitProcess`` ends a `git push` alone, not its process
/// group).
///
/// ```swift
/// try GitHeadGuardHook.install(in: URL(fileURLWithPath: "/srv/git/catalogue.git"))
/// ```
public enum GitHeadGuardHook {
  /// The hook's name in the repository's `hooks/` directory.
  public static let name = "reference-transaction"

  /// The hook's script for proposals under `namespace` (as in
  /// ``GitWorkspaceConfiguration/proposalNamespace``).
  public static func script(proposalNamespace namespace: String = "refs/proposals") -> String {
    """
    #!/bin/sh
    # Composable Workspace head guard (GitHeadGuardHook), for proposals under \(namespace)/.
    # A proposal ref is created only while its target branch (the commit's Proposal-Target
    # trailer) is locked at the proposal's parent.
    namespace='\(namespace)/'
    zero=0000000000000000000000000000000000000000
    trailer='%(trailers:key=Proposal-Target,valueonly)'
    state=$1
    gitdir=$(git rev-parse --git-dir) || exit 1
    markers="$gitdir/workspace-head-guard"
    # The receive-pack running this transaction (it outlives every state of it, even when
    # another hook runs this one): the nearest ancestor whose command names receive-pack.
    arguments_of() {
      if [ -r "/proc/$1/cmdline" ]; then tr '\\000' ' ' <"/proc/$1/cmdline"
      else ps -o args= -p "$1" 2>/dev/null; fi
    }
    parent_of() {
      if [ -r "/proc/$1/stat" ]; then sed 's/.*) [A-Za-z] \\([0-9]*\\).*/\\1/' "/proc/$1/stat"
      else ps -o ppid= -p "$1" 2>/dev/null | tr -d ' '; fi
    }
    owner=$PPID
    pid=$PPID
    while [ -n "$pid" ] && [ "$pid" -gt 1 ] 2>/dev/null; do
      case "$(arguments_of "$pid")" in *receive-pack*) owner=$pid; break ;; esac
      pid=$(parent_of "$pid")
    done
    holder="head-guard $owner"
    status=0
    # Whether lock $1 is a head guard's whose receive-pack is gone.
    stale() {
      content=$(cat "$1" 2>/dev/null) || return 1
      case "$content" in
      "head-guard "*) ! kill -0 "${content#head-guard }" 2>/dev/null ;;
      *) return 1 ;;
      esac
    }
    # Takes lock $1 with claim $2: exclusively, or over a stale head guard's lock.
    take() {
      ln "$2" "$1" 2>/dev/null && return 0
      stale "$1" || return 1
      takeover="$markers/takeover"
      ln "$2" "$takeover" 2>/dev/null || { stale "$takeover" && rm -f "$takeover"; return 1; }
      taken=1
      if stale "$1"; then
        rm -f "$1"
        ln "$2" "$1" 2>/dev/null || taken=0
      else
        taken=0
      fi
      rm -f "$takeover"
      [ $taken = 1 ]
    }
    while read -r old new ref; do
      case "$ref" in "$namespace"*) ;; *) continue ;; esac
      marker="$markers/$(printf '%s' "$ref" | tr '/' '%')"
      case "$state" in
      prepared)
        [ "$old" = "$zero" ] && [ "$new" != "$zero" ] || continue
        target=$(git log -1 --format="$trailer" "$new" | head -n 1)
        if [ -z "$target" ] || ! git check-ref-format "refs/heads/$target"; then
          echo "head guard: $ref names no valid target branch" >&2
          status=1
          break
        fi
        lock="$gitdir/refs/heads/$target.lock"
        mkdir -p "${lock%/*}" "$markers" || { status=1; break; }
        claim=$(mktemp "$markers/.claim.XXXXXX") || { status=1; break; }
        printf '%s\n' "$holder" >"$claim"
        # The marker first: however this hook ends, `aborted` finds what to release.
        printf '%s\n' "$lock" >"$marker"
        if ! take "$lock" "$claim"; then
          rm -f "$claim"
          echo "head guard: $target is being updated; try again" >&2
          status=1
          break
        fi
        rm -f "$claim"
        head=$(git rev-parse --verify --quiet "refs/heads/$target^{commit}")
        parent=$(git rev-parse --verify --quiet "$new^1")
        if [ "$head" != "$parent" ]; then
          echo "head guard: $target is at ${head:-nothing}, not at $parent; $ref refused" >&2
          status=1
          break
        fi
        ;;
      committed | aborted)
        if [ -f "$marker" ]; then
          lock=$(cat "$marker")
          # Only this transaction's own lock: never one another push holds.
          [ "$(cat "$lock" 2>/dev/null)" = "$holder" ] && rm -f "$lock"
          rm -f "$marker"
        fi
        ;;
      esac
    done
    exit $status

    """
  }

  /// Installs the hook into `repository` (a bare repository's directory, or a `.git`
  /// directory), executable by its owner. An existing `reference-transaction` hook that is not
  /// this one is left alone and the install throws.
  public static func install(in repository: URL, proposalNamespace: String = "refs/proposals")
    throws
  {
    let plain = proposalNamespace.allSatisfy {
      $0.isASCII && ($0.isLetter || $0.isNumber || "/-_.".contains($0))
    }
    guard proposalNamespace.hasPrefix("refs/"), plain else {
      throw GitHeadGuardHookError.unsupportedNamespace(proposalNamespace)
    }
    let hooks = repository.appendingPathComponent("hooks", isDirectory: true)
    let file = hooks.appendingPathComponent(name)
    let text = script(proposalNamespace: proposalNamespace)
    if let existing = try? String(contentsOf: file, encoding: .utf8), existing != text {
      throw GitHeadGuardHookError.otherHookInstalled(file.path)
    }
    try FileManager.default.createDirectory(at: hooks, withIntermediateDirectories: true)
    try ExecutableFile.write(text, to: file, permissions: 0o700)
  }

  /// Whether `repository` (a local repository's git directory) has this hook, executable, for
  /// `proposalNamespace`.
  public static func isInstalled(in repository: URL, proposalNamespace: String = "refs/proposals")
    -> Bool
  {
    let file = repository.appendingPathComponent("hooks", isDirectory: true)
      .appendingPathComponent(name)
    guard FileManager.default.isExecutableFile(atPath: file.path),
      let existing = try? String(contentsOf: file, encoding: .utf8)
    else { return false }
    return existing == script(proposalNamespace: proposalNamespace)
  }
}

/// Why ``GitHeadGuardHook/install(in:proposalNamespace:)`` installed nothing.
public enum GitHeadGuardHookError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The repository already has another `reference-transaction` hook.
  case otherHookInstalled(String)
  /// The namespace is not a plain `refs/…` path.
  case unsupportedNamespace(String)

  public var description: String {
    switch self {
    case .otherHookInstalled(let path):
      "\(path) is another hook; the head guard was not installed over it"
    case .unsupportedNamespace(let namespace):
      "\(namespace) is not a plain refs/… namespace; the head guard was not installed"
    }
  }
}
