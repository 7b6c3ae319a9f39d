import Foundation
import Testing

@testable import FossilWorkspace

/// A file is its baseline's when it hashes to the artifact's name: SHA3-256 (64 hex digits)
/// or, in an old repository, SHA-1 (40).
@Suite("Fossil artifact names")
struct ArtifactNameTests {
  @Test func sha3MatchesTheStandardVectors() {
    #expect(
      SHA3.hash256([]).hexString
        == "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a")
    #expect(
      SHA3.hash256(Array("abc".utf8)).hexString
        == "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532")
    // 200 bytes: more than one block (136), and a last block of 64.
    #expect(
      SHA3.hash256([UInt8](repeating: 0xA3, count: 200)).hexString
        == "79f38adec5c20307a98ef76e8324afbfd46cfd81b22e3973c65fa1bd9de31787")
    // Exactly one block: the padding takes a block of its own.
    #expect(
      SHA3.hash256([UInt8](repeating: 0x61, count: 136)).hexString
        == SHA3.hash256(Array(String(repeating: "a", count: 136).utf8)).hexString)
  }

  @Test func aNameIsCheckedWithTheHashItWasMadeWith() {
    let content = Data("abc".utf8)
    #expect(
      ArtifactName.names(
        content, "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"))
    #expect(ArtifactName.names(content, "A9993E364706816ABA3E25717850C26C9CD0D89D"))
    #expect(!ArtifactName.names(Data("abd".utf8), "a9993e364706816aba3e25717850c26c9cd0d89d"))
    #expect(!ArtifactName.names(content, "a9993e36"), "no hash Fossil makes")
  }

  @Test(.requires(.fossil)) func namesAgreeWithFossilItself() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("sha3-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var generator = SystemRandomNumberGenerator()
    for size in [0, 1, 135, 136, 137, 4_099] {
      let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
      let file = folder.appendingPathComponent("file-\(size)")
      try Data(bytes).write(to: file)
      let output = try await FossilCommand(home: folder).run(["sha3sum", file.path]).outputText
      let name = try #require(output.split(separator: " ").first.map(String.init))
      #expect(SHA3.hash256(bytes).hexString == name, "\(size) bytes")
    }
  }
}
