import Foundation
import ProcessSupport
import ProcessTestSupport
import Testing

@Suite("Executable files (git hooks)")
struct ExecutableFileTests {
  @Test func aScriptIsWrittenWithItsPermissionsReplacingTheOldOneAndLeavesNothingElse() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.url.appendingPathComponent("hook")
    try ExecutableFile.write("#!/bin/sh\nexit 1\n", to: file, permissions: 0o700)
    try ExecutableFile.write("#!/bin/sh\nexit 0\n", to: file, permissions: 0o700)

    #expect(try String(contentsOf: file, encoding: .utf8) == "#!/bin/sh\nexit 0\n")
    let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["hook"])
  }

  @Test func aFolderThatIsNotThereIsAClearErrorNamingThePath() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.url.appendingPathComponent("missing/hook")
    let error = #expect(throws: CocoaError.self) {
      try ExecutableFile.write("#!/bin/sh\n", to: file, permissions: 0o700)
    }
    #expect(error?.localizedDescription.contains("cannot create") == true)
    #expect(error?.localizedDescription.contains(directory.url.path + "/missing/") == true)
  }
}
