import Foundation
import Hummingbird
import KeywayProtocol
import Logging

/// Endpoints a signed-in user reaches with an access token: the OpenID Connect UserInfo endpoint,
/// the profile (`/v1/me`) and "sign out everywhere". The route table's guard checks the token
/// (``AccessTokenAuthorization``) before any of them runs; they read the user from their context.
struct UserRoutes {
    let database: any Database
    let clock: any ServerClock
    let tokens: AccessTokenAuthenticator
    let logger: Logger
    /// Which origins may read UserInfo answers: those the access token's client registered.
    let cors: CORS

    /// The UserInfo answer for `user` under a token of `scopes`: the claims of each granted scope
    /// (OpenID Connect Core §5.4), chosen as for the ID token (``ReleasedClaims``); with `profile`,
    /// the standard profile claims of `profile` that `schema` defines.
    static func userInfo(
        _ user: UserRecord, scopes: Set<String>, profile: [String: ProfileValue] = [:], schema: [ProfileFieldDefinition] = []
    ) -> UserInfo {
        var released = ReleasedClaims(scopes: scopes, user: user)
        released.addProfile(profile, schema: schema, scopes: scopes)
        return UserInfo(
            subject: user.id, email: released.email, emailVerified: released.emailVerified, isAnonymous: user.isAnonymous,
            phoneNumber: released.phoneNumber, phoneNumberVerified: released.phoneNumber.map { _ in true },
            profile: released.profile)
    }

    func register(on router: RouteTable) {
        let userInfo: @Sendable (Request, KeywayRequestContext) async throws -> Response = { _, context in
            let signedIn = try context.signedInUser()
            let (user, scopes) = (signedIn.user, signedIn.claims.scopes)
            // The profile is read only when the scopes release some of it.
            var schema: [ProfileFieldDefinition] = []
            var profile: [String: ProfileValue] = [:]
            if ReleasedClaims.releasesProfile(scopes) {
                (schema, profile) = try await database.read { repositories in
                    (
                        try await repositories.profiles.schema(projectId: user.projectId),
                        try await repositories.profiles.profile(userId: user.id)
                    )
                }
            }
            return try HTTPResponses.json(Self.userInfo(user, scopes: scopes, profile: profile, schema: schema))
        }
        let router = router.declaring(.user)
        // OpenID Connect Core §5.3: the token needs `openid`; its other scopes choose the claims.
        // The answer — a refusal of the token too — is readable by the origins its client registered.
        let userInfoRoutes = router.answeredThrough(TokenClientCORS(cors: cors, tokens: tokens))
        userInfoRoutes.get("oauth2/userinfo", use: userInfo)
        userInfoRoutes.post("oauth2/userinfo", use: userInfo)
        router.options("oauth2/userinfo") { request, _, allow in
            await cors.preflight(request, allow: allow, everyone: false)
        }

        // The user's profile, per the project's schema. A third-party application's token gets
        // the email address with `email`, and never the project's own fields or schema: the
        // standard claims the `profile` scope releases are UserInfo's.
        router.get("v1/me") { _, context in
            let signedIn = try context.signedInUser()
            let (claims, user) = (signedIn.claims, signedIn.user)
            let (schema, profile, firstParty) = try await database.read { repositories in
                (
                    try await repositories.profiles.schema(projectId: user.projectId),
                    try await repositories.profiles.profile(userId: user.id),
                    try await repositories.applications.find(configId: claims.clientId)?.firstParty ?? false
                )
            }
            let email = firstParty || claims.scopes.contains("email")
            return try HTTPResponses.json(
                UserProfileDocument(
                    subject: user.id, email: email ? user.email : nil, emailVerified: email && user.emailVerified,
                    profile: firstParty ? profile.filter { name, _ in schema.contains { $0.name == name } } : [:],
                    schema: firstParty ? schema : []))
        }
        router.declaring(.account).patch("v1/me") { request, context in
            let user = try context.signedInUser().user
            let update = try await RequestDecoding.json(UserProfileUpdate.self, from: request, context: context)
            let now = clock.now().epochMilliseconds
            let outcome: Result<UserProfileDocument, FlowProblem> = try await database.write { repositories in
                let schema = try await repositories.profiles.schema(projectId: user.projectId)
                let current = try await repositories.profiles.profile(userId: user.id)
                switch ProfileValidation.apply(update.profile, to: current, schema: schema) {
                case .failure(let problem):
                    return .failure(problem)
                case .success(let next):
                    try await repositories.profiles.setProfile(next, userId: user.id, at: now)
                    return .success(
                        UserProfileDocument(
                            subject: user.id, email: user.email, emailVerified: user.emailVerified, profile: next,
                            schema: schema))
                }
            }
            return try HTTPResponses.json(try outcome.get())
        }

        // Sign out everywhere: every session and refresh token of the user, in every app, and
        // every browser signed in at the hosted pages.
        router.declaring(.account).delete("v1/me/sessions") { _, context in
            let user = try context.signedInUser().user
            let now = clock.now().epochMilliseconds
            try await database.write { repositories in
                try await repositories.endSessions(userId: user.id, at: now)
            }
            logger.notice("signed out everywhere", metadata: ["user": "\(user.id)"])
            return Response(status: .noContent, headers: [.cacheControl: "no-store"])
        }
    }
}

/// Adds the CORS headers of an answer of an access token's client (``CORS/allowForClient``): the
/// origins the token's client registered may read it.
struct TokenClientCORS: RouterMiddleware {
    typealias Context = KeywayRequestContext
    let cors: CORS
    let tokens: AccessTokenAuthenticator

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        await cors.allowForClient(&response, request: request, clientId: tokens.tokenClient(request))
        return response
    }
}

