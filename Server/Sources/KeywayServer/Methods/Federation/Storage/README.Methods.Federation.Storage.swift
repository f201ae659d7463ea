// Methods/Federation/Storage/ — the rows of upstream identities, federation states and providers.
//
// - `FederatedIdentityRecord.swift`: a linked identity (by issuer and subject); a provider request's state.
// - `FederatedIdentityRepository.swift`: linked identities and the requests sent to providers.
// - `IdentityProviderRepository.swift`: a project's upstream providers (`identity_providers`).
