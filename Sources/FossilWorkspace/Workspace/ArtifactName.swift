import Foundation

/// Fossil's name for content: its SHA3-256 (64 hex digits) or, in a repository made before
/// Fossil 2.10, its SHA-1 (40). Whether a file holds an artifact is decided by hashing the file
/// the way the artifact's name was made — no pristine copy needed.
///
/// ```swift
/// ArtifactName.names(Data("alpha\n".utf8), entry.hash)   // true when the file is unchanged
/// ```
enum ArtifactName {
  /// Whether `name` is the artifact name of `content`. A name of any other length (no hash
  /// Fossil makes) names nothing: the content counts as changed, so it is sent, never lost.
  static func names(_ content: Data, _ name: String) -> Bool {
    switch name.count {
    case 64: SHA3.hash256(content).hexString == name.lowercased()
    case 40: SHA1.hash(Array(content)).hexString == name.lowercased()
    default: false
    }
  }
}
