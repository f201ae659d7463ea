// Flows/State/ — where a flow stands: `FlowProgress`, kept as versioned JSON in the flow's row.
//
// - `FlowProgress+Coding.swift`: the stored form: tolerant decoding, documents without a version or of format 1 converted.
// - `FlowProgress.swift`: `FlowProgress`: the mode, the stage with its state, the `Proof`s given, what methods keep across stages.
// - `FlowProgressV0.swift`: the format before versions, read only to convert flows in flight.
// - `FlowProgressV1.swift`: the members format 1 kept where format 2 keeps them per method, read only to convert.
