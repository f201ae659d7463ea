// Observability/ — the server's metrics: what `GET /metrics` exports, where it is served, and to whom.
//
// - `MetricsExposure.swift`: a metrics listener of its own, or the public one, and the metrics token.
// - `ProcessMetrics.swift`: the process's CPU time, memory, file descriptors and start time.
// - `RequestsInProgress.swift`: the requests a listener is answering now, named by a slow stop.
// - `SlowStage.swift`: the warning for a write batch, checkpoint or sweep that held requests up.
// - `ServerMetrics.swift`: the `keyway_…` counters and histograms; `MeteredDatabase`.
