// `import Keyway` brings the wire types its prompts and answers mention (the step and its kind,
// actions and fields, problems, tokens, the account's documents), one line each below; the rest
// of `KeywayProtocol` (requests, the server's own documents, the WebAuthn options and answers a
// custom `PasskeyAuthenticator` handles) stays behind `import KeywayProtocol`.
// `PublicSurfaceTests` counts what these lines expose. `Link` (a step's links) stays out: a
// re-export by name would shadow SwiftUI's `Link` in every app that imports both; a step's links
// are used without naming their type (`keyway.flow.follow(link: step.links[0])`).
@_exported import struct KeywayProtocol.Action
@_exported import struct KeywayProtocol.ApprovalDecision
@_exported import struct KeywayProtocol.ApprovalRequest
@_exported import struct KeywayProtocol.CodeChannel
@_exported import struct KeywayProtocol.EnrolledMethod
@_exported import struct KeywayProtocol.FederationProvider
@_exported import struct KeywayProtocol.Field
@_exported import struct KeywayProtocol.FieldOption
@_exported import struct KeywayProtocol.FieldType
@_exported import struct KeywayProtocol.FlowType
@_exported import struct KeywayProtocol.InvalidField
@_exported import struct KeywayProtocol.Message
@_exported import struct KeywayProtocol.Meta
@_exported import struct KeywayProtocol.MethodOption
@_exported import struct KeywayProtocol.MethodPurpose
@_exported import struct KeywayProtocol.OAuthErrorResponse
@_exported import struct KeywayProtocol.PasswordPurpose
@_exported import struct KeywayProtocol.Problem
@_exported import enum KeywayProtocol.ProblemAction
@_exported import struct KeywayProtocol.ProblemCode
@_exported import enum KeywayProtocol.ProfileValue
@_exported import struct KeywayProtocol.RedirectPayload
@_exported import struct KeywayProtocol.Risk
@_exported import struct KeywayProtocol.Sensitive
@_exported import struct KeywayProtocol.Step
@_exported import struct KeywayProtocol.StepInfo
@_exported import struct KeywayProtocol.StepKind
@_exported import struct KeywayProtocol.TokenResponse
@_exported import struct KeywayProtocol.TrustedDevice
@_exported import struct KeywayProtocol.UserInfo
@_exported import struct KeywayProtocol.UserProfileDocument
