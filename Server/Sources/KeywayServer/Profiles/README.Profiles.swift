// Profiles/ — user profiles: a project's profile schema and each user's profile, stored as JSON.
//
// - `ProfileRepository.swift`: profile schemas per project and user profiles, one JSON document each.
// - `ProfileSchemaRegistration.swift`: `KeywayServerApp.setProfileSchema(_:)` for the dev project.
// - `ProfileValidation.swift`: a schema checked when saved, and a profile update against its schema.
