// PowerAuth/Tokens/ — activations' MAC tokens: made and removed by the device, listed and revoked by an administrator.
//
// - `PowerAuthTokenRepository.swift`: MAC tokens (`powerauth_tokens`), numbered per activation.
// - `PowerAuthTokenService.swift`: `token/create` and `token/remove`, and the administrator's list.
