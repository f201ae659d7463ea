/// Mixed-script detection for identifiers (after Unicode TS #39 §5.2, "moderately restrictive"):
/// within one label of an address, letters come from a single script, or from Latin together with
/// the scripts of Chinese, Japanese or Korean writing. An address mixing, say, Latin and Cyrillic
/// (`pаypal.com` with a Cyrillic `а`) is refused: it is built to look like another.
enum MixedScript {
    /// The scripts told apart. Letters of scripts not listed here count as `.other(block)`, by
    /// their Unicode block start, so two unlisted scripts still do not mix.
    enum Script: Hashable {
        case latin, greek, cyrillic, armenian, hebrew, arabic, han, hiragana, katakana, hangul, bopomofo, thai, devanagari
        case other(UInt32)
    }

    /// Whether `label` mixes scripts in a way an honest identifier does not.
    static func isMixed<S: StringProtocol>(_ label: S) -> Bool {
        var scripts = Set<Script>()
        for scalar in label.unicodeScalars {
            if let script = script(of: scalar) { scripts.insert(script) }
        }
        if scripts.count <= 1 { return false }
        let cjk: Set<Script> = [.han, .hiragana, .katakana, .hangul, .bopomofo]
        // Latin with the scripts of one CJK writing system: Japanese, Chinese or Korean.
        let rest = scripts.subtracting([.latin])
        guard rest.isSubset(of: cjk) else { return true }
        let japanese: Set<Script> = [.han, .hiragana, .katakana]
        let chinese: Set<Script> = [.han, .bopomofo]
        let korean: Set<Script> = [.han, .hangul]
        return !(rest.isSubset(of: japanese) || rest.isSubset(of: chinese) || rest.isSubset(of: korean))
    }

    /// Latin letters drawn like a plain ASCII letter (Unicode TS #39 confusables): the dotless
    /// `ı` and `ȷ`, and the IPA and phonetic letters (`ɑ`, `ɡ`, `ɩ`, small capitals like `ᴀ`).
    static func looksLikeASCII(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x131, 0x237, 0x250...0x2AF, 0x1D00...0x1DBF: true
        default: false
        }
    }

    /// Whether `label` is ASCII letters with a look-alike among them (`victım`, with a dotless
    /// `ı`): built to pass for the ASCII label.
    static func imitatesASCII<S: StringProtocol>(_ label: S) -> Bool {
        let scalars = label.unicodeScalars
        guard scalars.contains(where: looksLikeASCII) else { return false }
        return scalars.contains { $0.isASCII && $0.properties.isAlphabetic }
    }

    /// The script of a letter; `nil` for what every script shares (digits, punctuation, marks).
    static func script(of scalar: Unicode.Scalar) -> Script? {
        let value = scalar.value
        guard scalar.properties.isAlphabetic, !scalar.properties.isDiacritic else { return nil }
        switch value {
        case 0x41...0x5A, 0x61...0x7A, 0xAA, 0xBA, 0xC0...0x24F, 0x1E00...0x1EFF, 0x2C60...0x2C7F, 0xA720...0xA7FF,
            0xFF21...0xFF3A, 0xFF41...0xFF5A:
            return .latin
        case 0x370...0x3FF, 0x1F00...0x1FFF: return .greek
        case 0x400...0x52F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F: return .cyrillic
        case 0x530...0x58F: return .armenian
        case 0x590...0x5FF: return .hebrew
        case 0x600...0x6FF, 0x750...0x77F, 0x8A0...0x8FF, 0xFB50...0xFDFF, 0xFE70...0xFEFF: return .arabic
        case 0x900...0x97F: return .devanagari
        case 0xE00...0xE7F: return .thai
        case 0x3040...0x309F: return .hiragana
        case 0x30A0...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F: return .katakana
        case 0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF: return .hangul
        case 0x3100...0x312F, 0x31A0...0x31BF: return .bopomofo
        case 0x2E80...0x2FDF, 0x3005, 0x3007, 0x3021...0x3029, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF,
            0x20000...0x3FFFF:
            return .han
        default:
            return .other(value & ~0x7F)
        }
    }
}
