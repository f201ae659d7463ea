// Everything the activation API mentions comes with `import KeywayPowerAuthClient`: the SDK's storage
// and transport seams (`Keyway`) and the PowerAuth values (`KeywayPowerAuth`: activation codes,
// factors, the authorization header).
@_exported import Keyway
@_exported import KeywayPowerAuth
