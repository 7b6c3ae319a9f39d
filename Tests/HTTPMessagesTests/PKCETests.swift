import Foundation
import HTTPMessages
import HTTPTestSupport
import Testing

@Suite("PKCE: SHA-256 and the S256 challenge")
struct PKCETests {
  private func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
  }

  @Test(arguments: [
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
    (
      "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqr"
        + "lmnopqrsmnopqrstnopqrstu",
      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
    ),
  ])
  func nistVectors(message: String, digest: String) {
    #expect(hex(SHA256.hash(Array(message.utf8))) == digest)
  }

  @Test func nistMillionAs() async throws {
    let digest = try await offThePool {
      var hasher = SHA256()
      let thousand = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
      for _ in 0..<1000 { hasher.update(thousand) }
      return hasher.finalize()
    }
    #expect(hex(digest) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  /// Lengths around the 56- and 64-byte padding boundaries (digests from Python's hashlib).
  @Test(arguments: [
    (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
    (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
    (63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
    (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
    (65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"),
    (119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"),
    (120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"),
  ])
  func paddingBoundaries(length: Int, digest: String) {
    #expect(hex(SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: length))) == digest)
  }

  @Test func rfc7636AppendixB() throws {
    let octets: [UInt8] = [
      116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212, 37,
      77, 105, 214, 191, 240, 91, 88, 5, 88, 83, 132, 141, 121,
    ]
    let verifier = PKCE.base64URL(octets)
    #expect(verifier == "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
    let pkce = try PKCE(verifier: verifier)
    #expect(pkce.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    #expect(pkce.challengeMethod == "S256")
  }

  @Test func aGivenVerifierMustBe43To128UnreservedCharacters() throws {
    _ = try PKCE(verifier: String(repeating: "a", count: 43))
    _ = try PKCE(verifier: String(repeating: "~", count: 128))
    let secret = "s3cret"
    for bad in [
      "", String(repeating: "a", count: 42), String(repeating: "a", count: 129),
      String(repeating: "a", count: 42) + "+", String(repeating: secret, count: 8) + " ",
      String(repeating: "é", count: 43),
    ] {
      let error = #expect(throws: InvalidPKCEVerifier.self) { try PKCE(verifier: bad) }
      #expect(error?.description.contains(secret) == false, "the verifier is never repeated")
    }
  }

  @Test func freshVerifiersAreLongUnreservedDistinctAndNeverPrinted() {
    let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    let verifiers = (0..<200).map { _ in PKCE() }
    #expect(Set(verifiers.map(\.verifier)).count == 200)
    for pkce in verifiers {
      #expect(pkce.verifier.count == 43)
      #expect(pkce.verifier.allSatisfy(unreserved.contains))
      #expect(!"\(pkce)".contains(pkce.verifier))
      #expect(!"\(pkce)".contains(pkce.challenge))
    }
  }
}
