// PowerAuth/Admin/ — administering PowerAuth: credentials, activation codes, the activations' lifecycle.
//
// - `AdminService+PowerAuth.swift`: the same for `keyway-server project powerauth …`, with the master key.
// - `PowerAuthAdminResources.swift`: the admin bodies: settings, codes, activations; `PowerAuthAdminError`.
// - `PowerAuthAdminRoutes.swift`: `/admin/…/powerauth`, activations, tokens, recovery codes; `/v1/user/…`.
// - `PowerAuthAdministration.swift`: settings, activation codes, commit, block, unblock, remove.
