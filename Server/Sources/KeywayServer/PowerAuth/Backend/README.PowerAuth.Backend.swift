// PowerAuth/Backend/ — what an app's own backend asks of PowerAuth, as a confidential application with its role.
//
// - `PowerAuthBackendRoutes.swift`: the `/v1/powerauth/…` routes, each declared `backend(.powerAuth)`.
// - `PowerAuthBackendServices.swift`: envelope keys, token checks, public keys, device and server signatures.
// - `PowerAuthBackendVerification.swift`: online signature checks; offline signatures' QR data and checks.
//
// A backend may only ask about activations of its own project; another project's is answered as unknown.
