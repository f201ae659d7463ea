// expect (iOS): cannot find 'SecItemCopyMatch' in scope
// A misspelled Apple API (SecItemCopyMatching) in a Keychain read: the stubs declare only what
// Apple's headers declare, so a wrong name cannot compile here either.
#if canImport(Security)
    import Foundation
    import Security

    func readItem(_ query: [String: Any]) -> OSStatus {
        var result: CFTypeRef?
        return SecItemCopyMatch(query as CFDictionary, &result)
    }
#endif
