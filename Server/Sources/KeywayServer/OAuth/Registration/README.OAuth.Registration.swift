// OAuth/Registration/ — dynamic client registration (RFC 7591) behind initial access tokens naming a template.
//
// - `ClientLinks.swift`: a client's `logo_uri`, `client_uri`, `policy_uri` and `tos_uri`, each `https`.
// - `ClientMetadata.swift`: a registration request's client metadata, validated.
// - `RegistrationEndpoint.swift`: `POST /oauth2/register`: a client in the template's project.
// - `RegistrationTokenIssuing.swift`: `KeywayServerApp.issueRegistrationToken(templateConfigId:expiresIn:)`.
// - `RegistrationTokenRepository.swift`: initial access tokens stored as hashes, with their template.
