// Guests/ — guest accounts: users without an identifier, made by `POST /v1/guests` and upgraded by a sign-up.
//
// - `GuestService.swift`: a guest made for an application, and its tokens (`"is_anonymous": true`).
// - `GuestSettings.swift`: whether an application makes guests, their maximum age, a per-address limit.
// - `GuestSweep.swift`: the maintenance sweep's deletion of guests never upgraded.
//
// Upgrading a guest is a sign-up flow of the engine, which keeps the guest's user ID; its route is in
// `HTTP/Routes/GuestRoutes.swift`.
