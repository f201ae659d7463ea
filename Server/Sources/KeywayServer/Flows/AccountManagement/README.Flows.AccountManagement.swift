// Flows/AccountManagement/ — the `accountManage` flow: a signed-in user's methods, sessions and operations.
//
// - `FlowEngine+ActivationCode.swift`: a PowerAuth activation code for another device, after re-verification.
// - `FlowEngine+Manage.swift`: the methods' operations run, fresh verification asked, `finish`.
// - `FlowEngine+Sessions.swift`: the live sessions listed; `endSession` and `endOtherSessions`.
// - `FlowEngine+WaysIn.swift`: a change refused when it takes away the account's last way in.
// - `ManageProblems.swift`: the problems of account operations (`lastSecondFactor`, `lastIdentifier`).
