// Methods/SignInLink/Storage/ — the sign-in link's rows, by the keyed hash of their token.
//
// - `SignInLinkRecord.swift`: a link's token hash, its flow, and its state: pending, approved, denied, used.
// - `SignInLinkRepository.swift`: the sign-in link's repository: one row per link, spent once.
