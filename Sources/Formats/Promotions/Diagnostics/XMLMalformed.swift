import PlistReader

extension Diagnostic {
    static func xmlMalformed(_ issue: PlistIssue) -> Diagnostic {
        Diagnostic(.xmlMalformed, "malformed XML: \(ourWords(issue.message))", at: issue.location)
    }

    /// libxml2's message, in our words where its own would send the user the wrong way: it asks to
    /// "indicate encoding", but an `encoding` declaration is ignored (docs/safety.md); the bytes must
    /// be UTF-8.
    static func ourWords(_ message: String) -> String {
        let notUTF8 = "Input is not proper UTF-8, indicate encoding ! "
        guard message.hasPrefix(notUTF8) else { return message }
        return "the file is not UTF-8 here (\(message.dropFirst(notUTF8.count))): save it as UTF-8, "
            + "e.g. with `iconv -f ISO-8859-1 -t UTF-8` (an encoding declaration is ignored)"
    }
}
