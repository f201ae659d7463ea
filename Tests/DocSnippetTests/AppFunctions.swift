import Foundation
import Keyway
import KeywayProtocol

// The functions the docs' snippets leave to the app ("your UI"): here they only have to exist
// with a plausible signature, so that the snippets compile.

func askForCode(sentTo destination: String, length: Int) async -> String { "" }
func askUserForCode() async -> String { "" }
func askUserToChoose(_ methods: [MethodOption], skippable: Bool) async -> MethodOption? { methods.first }
func askUser(_ question: String) async -> String { "" }
func attestation(for url: URL?) async throws -> String { "" }
func openInBrowser(_ url: URL, returningTo scheme: String) async throws -> URL { url }
