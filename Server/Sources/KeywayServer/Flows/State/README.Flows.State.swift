// Flows/State/ — where a flow stands: `FlowProgress`, kept as versioned JSON in the flow's row.
//
// - `FlowProgress+Coding.swift`: the stored form: tolerant decoding, documents without a version converted.
// - `FlowProgress.swift`: `FlowProgress`: the mode, the stage with its state, and the `Proof`s given.
// - `FlowProgressV0.swift`: the format before versions, read only to convert flows in flight.
