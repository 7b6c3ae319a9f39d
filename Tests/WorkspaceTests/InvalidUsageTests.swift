import ComposableCore
import ComposableTesting
import ComposableWorkspace
import Testing

/// Invalid actions and invalid client output are programmer/protocol errors: reported as
/// issues, never state. The recorder receives everything the store reports too (including its
/// own assertion failures), so each test asserts the exact set of messages.
@MainActor
@Suite("Invalid actions and integrator output")
struct InvalidUsageTests {
  @Test(
    "operations that need a ready session are reported and ignored",
    arguments: [
      FakeState(id: Fixture.id),
      FakeState(id: Fixture.id, availability: .preparing),
      FakeState(
        id: Fixture.id, availability: .preparationFailed(WorkspaceFailure(message: "disk full"))),
    ]
  )
  func invalidActions(state: FakeState) async {
    let recorder = IssueRecorder()
    await withIssueReporters([recorder]) {
      // The client is left unimplemented: any call would be reported too.
      let store = makeStore(state)
      await store.send(.refreshBaseline)
      await store.send(.selectBranch("drafts"))
      await store.send(.captureChanges)
      await store.send(.publishProposal(Fixture.request))
      await store.finish()
      #expect(store.state == state)
    }
    let actions = ["refreshBaseline", "selectBranch(drafts)", "captureChanges", "publishProposal"]
    #expect(recorder.messages.count == actions.count)
    for (message, action) in zip(recorder.messages, actions) {
      #expect(
        message.hasPrefix(
          "Workspace events: \(action) was sent while the workspace is \(state.availability.caseName)"
        )
      )
    }
  }

  @Test("selectBranch answering another branch is reported and not installed")
  func wrongBranchSelected() async {
    let recorder = IssueRecorder()
    await withIssueReporters([recorder]) {
      let store = makeStore {
        $0.workspaceClient.selectBranch = { source, _ in
          WorkspaceSession(source: source, baseline: Fixture.main2)
        }
      }
      await store.send(.selectBranch("drafts"))
      await store.receive(matching: { action in
        guard case .delegate(.branchSelectionFailed(requested: "drafts", let failure)) = action
        else { return false }
        return failure.kind == .invalidIntegratorOutput
      })
      #expect(store.state == Fixture.ready)
      await store.finish()
    }
    #expect(recorder.messages.count == 1)
    #expect(
      recorder.messages.first?.contains("selectBranch must return exactly the requested branch")
        == true)
    #expect(recorder.messages.first?.contains("main@r2") == true)
  }

  @Test("refreshBaseline answering another branch is reported and not installed")
  func refreshChangedBranch() async {
    let recorder = IssueRecorder()
    await withIssueReporters([recorder]) {
      let store = makeStore {
        $0.workspaceClient.refreshBaseline = { source, _ in
          WorkspaceSession(source: source, baseline: Fixture.drafts)
        }
      }
      await store.send(.refreshBaseline)
      await store.receive(matching: { action in
        guard case .delegate(.refreshFailed(let failure)) = action else { return false }
        return failure.kind == .invalidIntegratorOutput
      })
      #expect(store.state == Fixture.ready)
      await store.finish()
    }
    #expect(recorder.messages.count == 1)
    #expect(
      recorder.messages.first?.contains("refreshBaseline must keep the branch identity") == true)
  }

  @Test(
    "a record whose target is not the installed baseline is reported, and delivered as a record that exists"
  )
  func recordTargetsAnotherBaseline() async {
    let recorder = IssueRecorder()
    let wrong = ProposalRecord(id: "P-1", contentRevision: "c1", target: Fixture.main2)
    await withIssueReporters([recorder]) {
      let store = makeStore {
        $0.workspaceClient.captureChanges = { _, _ in Fixture.edits }
        $0.workspaceClient.publishProposal = { _, _, _, _ in wrong }
      }
      await store.send(.publishProposal(Fixture.request))
      // Past the commit point: never a plain failure, which would invite a retry under a new key.
      await store.receive(.delegate(.publication(.publishedInvalidRecord(wrong))))
      #expect(store.state == Fixture.ready)
      await store.finish()
    }
    #expect(recorder.messages.count == 1)
    #expect(recorder.messages.first?.contains("targeting the installed baseline main@r1") == true)
  }

  @Test("a record with a wrong target answered after an interruption is still delivered, flagged")
  func invalidRecordAfterInterruption() async {
    let recorder = IssueRecorder()
    let wrong = ProposalRecord(id: "P-1", contentRevision: "c1", target: Fixture.main2)
    let publishing = Signal()
    let gate = Gate()
    await withIssueReporters([recorder]) {
      let store = makeStore {
        $0.workspaceClient.captureChanges = { _, _ in Fixture.edits }
        $0.workspaceClient.publishProposal = { _, _, _, _ in
          await publishing.fire()
          await gate.wait()  // the request was on the wire: it answers although cancelled
          return wrong
        }
      }
      await store.send(.publishProposal(Fixture.request))
      await publishing.wait()
      await store.send(.interruptAuthorizedWork)
      await store.receive(.delegate(.interrupted))
      await gate.open()
      await store.receive(.delegate(.publication(.publishedInvalidRecord(wrong))))
      await store.finish()
    }
    #expect(recorder.messages.count == 1)
  }

  @Test(
    "the requester of a refresh that broke the contract is told it failed, without the invalid output"
  )
  func violationIsNotRepeatedToTheRequester() async {
    let recorder = IssueRecorder()
    await withIssueReporters([recorder]) {
      let store = makeStore {
        $0.workspaceClient.refreshBaseline = { source, _ in
          WorkspaceSession(source: source, baseline: Fixture.drafts)
        }
      }
      await store.send(.refreshBaseline)
      await store.receive(
        .delegate(
          .refreshFailed(
            WorkspaceFailure(
              kind: .invalidIntegratorOutput,
              message: "the workspace service answered something invalid; nothing was installed"))))
      await store.finish()
    }
    // The output (drafts@d7) is in the reported issue only.
    #expect(recorder.messages.count == 1)
    #expect(recorder.messages.first?.contains("drafts@d7") == true)
  }

  @Test("an endpoint the app never installed is reported by name")
  func unimplementedEndpoint() async {
    let recorder = IssueRecorder()
    await withIssueReporters([recorder]) {
      let store = makeStore(Fixture.inactive)
      await store.send(.prepareSource) { $0.availability = .preparing }
      await store.receiveModification {
        $0.availability = .preparationFailed(
          WorkspaceFailure(
            kind: .other, message: "unimplemented endpoint WorkspaceClient.prepareSource")
        )
      }
      await store.finish()
    }
    #expect(
      recorder.messages == [
        "Unimplemented: WorkspaceClient.prepareSource was called, but this test did not override it."
      ])
  }
}
