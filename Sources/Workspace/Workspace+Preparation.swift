import ComposableCore

extension Workspace {
  func prepareSource(_ state: inout State) -> Effect<Action> {
    switch state.availability {
    case .ready, .preparing:
      // A ready session is kept as it is (preparation must not advance its baseline), and a
      // preparation in flight is not duplicated.
      return .none
    case .inactive, .preparationFailed:
      state.availability = .preparing
      let client = self.client
      let id = state.id
      return .run(modifying: State.self) { _, state in
        let session = try await client.prepareSource(id)
        await state.modify { $0.finishPreparation(with: .ready(session)) }
      } catch: { error, send, state in
        if isAuthorizationInvalidated(error) {
          // No coherent session exists, and losing the grant is not a workspace failure.
          // One main-actor turn: the state change and the event that explains it land together.
          await MainActor.run {
            state.modify { $0.finishPreparation(with: .inactive) }
            send(.delegate(.authorizationInvalidated))
          }
        } else {
          let failure = WorkspaceFailure(error)
          await state.modify { $0.finishPreparation(with: .preparationFailed(failure)) }
        }
      }
      .cancellable(id: WorkspaceOperation.preparation(of: id), cancelInFlight: true)
    }
  }
}

extension WorkspaceState {
  /// Ends a preparation; ignored when the state is no longer `preparing` (the parent replaced
  /// it meanwhile).
  mutating func finishPreparation(with availability: WorkspaceAvailability<Source>) {
    guard case .preparing = self.availability else { return }
    self.availability = availability
  }
}
