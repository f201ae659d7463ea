// HTTP/ — the HTTP layer: the route table, the request context, request decoding, CORS, proxies and the request log.
//
// - `CORS.swift`: cross-origin access to the token, UserInfo and revocation endpoints, per application.
// - `CORSOrigin.swift`: which origins an application may register (`https`, or `http` on loopback).
// - `CORSOriginRepository.swift`: each application's origins (`application_cors_origins`).
// - `ClientCORS.swift`: the CORS headers around a client endpoint's guard, its refusals included.
// - `HTTPResponses.swift`: the server's JSON answers, problem documents and OAuth errors.
// - `KeywayRequestContext.swift`: the request context: trace ID, client address, what the guards found.
// - `ParserErrorProblem.swift`: a problem document for the `400` of a request NIO's parser refused.
// - `RequestDecoding.swift`: JSON bodies read up to the upload limit; bad input as `invalidFields`.
// - `RequestLogMiddleware.swift`: trace ID, client address, errors as problems, one log line per request.
// - `RouteTable.swift`: the router with each route's declared `Caller`, `405` with `Allow`, and `OPTIONS`.
// - `ServerProblemCodes.swift`: the codes of the server's own refusals (a bad path, method or body; its failures).
// - `TrustedProxies.swift`: the proxies whose `Forwarded` or `X-Forwarded-For` names the client.
// - `Routes/`: the flow API, OAuth endpoints, well-known documents, and user, device and health routes.
//
// Every route declares who may call it where it is registered (`router.declaring(…)`); the route
// table keeps the declarations, from which `docs/routes.md` is generated.
