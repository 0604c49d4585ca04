/// The bytes the lexer and the matchers look for.
enum ASCII {
    static let tab: UInt8 = 0x09
    static let newline: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let quote: UInt8 = 0x22
    static let hash: UInt8 = 0x23
    static let apostrophe: UInt8 = 0x27
    static let openParen: UInt8 = 0x28
    static let closeParen: UInt8 = 0x29
    static let star: UInt8 = 0x2A
    static let plus: UInt8 = 0x2B
    static let comma: UInt8 = 0x2C
    static let dot: UInt8 = 0x2E
    static let equals: UInt8 = 0x3D
    static let exclamation: UInt8 = 0x21
    static let minus: UInt8 = 0x2D
    static let slash: UInt8 = 0x2F
    static let colon: UInt8 = 0x3A
    static let semicolon: UInt8 = 0x3B
    static let less: UInt8 = 0x3C
    static let greater: UInt8 = 0x3E
    static let question: UInt8 = 0x3F
    static let at: UInt8 = 0x40
    static let openBracket: UInt8 = 0x5B
    static let backslash: UInt8 = 0x5C
    static let closeBracket: UInt8 = 0x5D
    static let backtick: UInt8 = 0x60
    static let openBrace: UInt8 = 0x7B
    static let closeBrace: UInt8 = 0x7D

    /// Letters, `_`, `$` and every non-ASCII byte.
    static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A || byte == 0x5F || byte == 0x24 || byte >= 0x80
    }

    /// An identifier's start bytes and digits.
    static func isIdentifierPart(_ byte: UInt8) -> Bool {
        isIdentifierStart(byte) || isDigit(byte)
    }

    /// `0`–`9`.
    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= 0x30 && byte <= 0x39
    }

    /// What may follow a number's first digit: digits, letters, `_` and `.` (`0x1F`, `1.5e3f`).
    static func isNumberPart(_ byte: UInt8) -> Bool {
        isIdentifierPart(byte) || byte == 0x2E
    }
}
