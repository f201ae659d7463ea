// Flows/ — the flow engine: the sequence every flow follows, the method protocol and capabilities, and the registry.
//
// - `DatabaseFlowDirectory.swift`: the `FlowDirectory` over stored policies, invite codes and start tokens.
// - `FlowDirectory.swift`: the `FlowDirectory` protocol: what the engine reads of the administration side.
// - `FlowEngine+Guests.swift`: a guest's `accountExists` answers and the `guest.merged` hand-over.
// - `FlowEngine+Input.swift`: the answers the engine takes itself: a method choice, skipping, the form.
// - `FlowEngine+Sequence.swift`: the methods open at each point, `proved`, `advance`, completing.
// - `FlowEngine+StartWithoutIdentifier.swift`: a sign-in begun by an `IdentifyingMethod` (a passkey).
// - `FlowEngine.swift`: `FlowEngine`: flows started, read and cancelled; one transaction per request.
// - `FlowMethod.swift`: the `FlowMethod` protocol, with `StepDraft`, `ManageOperation`, `FlowInputRoutes`.
// - `FlowPolicy.swift`: what the engine needs of an application's policy.
// - `FlowProblem.swift`: the RFC 7807 problems flow requests answer with.
// - `FlowSequence.swift`: the next stage of a flow as a pure function of its `Facts`.
// - `GuestProblems.swift`: the refusals of guests: making one, upgrading one, what a guest may not do.
// - `MethodCapabilities.swift`: the capability protocols a method declares (`PrimaryMethod`, `MethodFamily`, …).
// - `MethodContext.swift`: all a method may do inside its flow's request; `FlowInputRoutes.input`.
// - `MethodDependencies.swift`: what methods need from the server (password hashing, App Attest), by key.
// - `MethodRegistry.swift`: the method modules a server runs, `MethodRegistry.standard`, and the families.
// - `RiskAssessment.swift`: a sign-in flagged from a new address or after repeated failures.
// - `SignupForm.swift`: the sign-up form's fields and the checks of its answers.
// - `StagedMethodInput.swift`: method input doing slow work between transactions (a password's hash).
// - `StepBuilder.swift`: a flow's progress turned into the wire `Step`.
// - `AccountManagement/`: the `accountManage` flow: operations, re-verification, sessions.
// - `Codes/`: the one-time code step shared by the code methods.
// - `Policy/`: `ApplicationPolicy`, its method settings, validation and repository.
// - `State/`: `FlowProgress`, the flow's state kept as versioned JSON.
// - `Storage/`: the rows of flows, invite codes and start tokens.
//
// A method never extends the engine: stages follow `FlowSequence.next(_:)`, and a method reads its
// input and runs its operations through `MethodContext`.
