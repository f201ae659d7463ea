import KeywayProtocol

/// The `422` answer to a refused policy: the problem document (code `invalid_policy`, every
/// problem also in `invalidFields`) plus `problems`, each with its stable code.
struct PolicyRejection: Encodable {
    let problem: Problem
    let problems: [PolicyProblem]

    private enum CodingKeys: String, CodingKey { case problems }

    func encode(to encoder: any Encoder) throws {
        try problem.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(problems, forKey: .problems)
    }
}
