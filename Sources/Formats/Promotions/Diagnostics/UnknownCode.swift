import PlistReader

extension Diagnostic {
    /// An unknown code's diagnostic whose message is written later, once "did you mean" is known
    /// (``DecodingPipeline/Output/suggest(parts:)`` writes every one): made while decoding, it
    /// would be made twice.
    static func unknownCodeToAnswer(at location: SourceLocation, promotion: String?) -> Diagnostic {
        Diagnostic(.unknownCode, "", at: location, promotion: promotion)
    }

    /// `unknown product code `X`: the catalog has no such product`, and `; did you mean `Y`?` when
    /// there is an answer. Written piece by piece into room made once: a file can have tens of
    /// thousands.
    static func unknownCodeMessage(_ code: String, suggestion: String?) -> String {
        let shown = code.escapedForDisplay
        var message = ""
        message.reserveCapacity(58 + shown.utf8.count + (suggestion.map { 19 + $0.utf8.count } ?? 0))
        message += "unknown product code `"
        message += shown
        message += "`: the catalog has no such product"
        if let suggestion {
            message += "; did you mean `"
            message += suggestion
            message += "`?"
        }
        return message
    }
}
