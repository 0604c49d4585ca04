/// One token of Objective-C or Swift source, as ``SourceLexer`` produces it. Comments and the text
/// of string literals never become tokens.
struct SourceToken {
    /// What the token is.
    enum Kind: Equatable {
        /// A name (or keyword); for a Swift `` `name` `` the text inside the backticks.
        case identifier
        /// One byte of punctuation or an operator character.
        case punctuation
        /// A string or character literal (or, in Swift, the part of one between interpolations).
        case literal
        /// A number.
        case number
        /// The file name of an Objective-C `#import` or `#include`, without its quotes or brackets.
        case header
    }

    /// What the token is.
    var kind: Kind
    /// The byte offset of its text.
    var start: Int
    /// The byte offset just past its text.
    var end: Int
    /// Its 1-based line.
    var line: Int
    /// Its 1-based column, in bytes.
    var column: Int
    /// Whether no other token precedes it on its line.
    var isFirstOnLine: Bool
    /// Its first byte (the whole text of a punctuation token).
    var byte: UInt8

    /// Whether it is the punctuation `byte`.
    func isPunctuation(_ byte: UInt8) -> Bool {
        kind == .punctuation && self.byte == byte
    }
}
