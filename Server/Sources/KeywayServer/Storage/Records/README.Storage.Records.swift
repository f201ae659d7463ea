// Storage/Records/ — the rows most features share: applications, users and signed-in sessions.
//
// - `ApplicationRecord.swift`: an application of a project; its config ID is its OAuth `client_id`.
// - `SessionRecord.swift`: a signed-in session from a completed flow; tokens carry its ID as `sid`.
// - `UserRecord.swift`: a user of a project, with the methods set up on the account.
