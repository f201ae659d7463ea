// App/Dev/ — dev mode's provisioning: the dev project and its public application, made on first start.
//
// - `DevProvisioning.swift`: the dev application (`cfg_dev`) with loopback redirect URIs for native apps.
// - `ScaleSeed.swift`: fills a database with synthetic signed-in users for `keyway-bench seed` (package API).
