/// A client call the kit made that threw where the rule expected an answer.
struct ContractStepFailure: Error {
  var step: String
  var error: any Error

  var message: String { "\(step) threw \(describe(error))" }
}

/// Runs one named client call; a thrown error becomes a ``ContractStepFailure`` naming it.
func step<T>(_ name: String, _ body: () async throws -> T) async throws -> T {
  do {
    return try await body()
  } catch let failure as ContractStepFailure {
    throw failure
  } catch {
    throw ContractStepFailure(step: name, error: error)
  }
}

/// `Type: description`, so a message says what was thrown as well as what it said.
func describe(_ error: any Error) -> String {
  "\(type(of: error)) (\(error))"
}
