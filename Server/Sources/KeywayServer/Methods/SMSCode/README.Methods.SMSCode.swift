// Methods/SMSCode/ — SMS codes: a one-time code sent to a phone number, which a flow can also set up.
//
// - `SMSCodeMethod+Account.swift`: the account step's `setupSms` and `removeSms`.
// - `SMSCodeMethod.swift`: a primary method, a second factor set up in a flow, a re-verification, by SMS.
//
// Outside dev mode a policy using SMS codes needs an SMS delivery webhook (`delivery.sms`).
