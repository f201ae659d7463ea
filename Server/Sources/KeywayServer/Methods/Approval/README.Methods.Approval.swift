// Methods/Approval/ — approval by another trusted device: a second factor that waits at `awaitApproval`.
//
// - `ApprovalMethod+Approvers.swift`: the devices that could approve, counted; `ApprovalRequestedEvent`.
// - `ApprovalMethod.swift`: an approval request opened, the events webhook told, and polled.
// - `ApprovalProblems.swift`: `approvalDenied`, `approvalExpired` and `slowDown`.
//
// The other device decides through `ApprovalService` (`Devices/`), outside the flow.
