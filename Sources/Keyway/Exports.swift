// Everything the SDK's public API mentions comes with `import Keyway`: the wire types of the
// protocol (`Step`, `Prompt`'s payloads, `MethodOption`, `Problem`, `Sensitive`…).
@_exported import KeywayProtocol
