import Pricing
import Promotions

/// GitHub Actions workflow commands: `::error file=F,line=L,col=C,title=ID::MESSAGE`, which the runner
/// turns into annotations on the pull request. Escaping follows the runner: `%`, CR and LF in the
/// message; those and `:` and `,` in property values. The runner passes other control characters
/// through to the log, so a file's name has its others escaped too (`\u{1b}`): a name cannot colour
/// the log.
public enum GitHubReporter {
    /// With `notes`, each diagnostic's notes follow it as `::notice` commands at their own place.
    public static func render(_ files: [CheckedFile], notes: Bool = false) -> String {
        var out = ""
        for file in files {
            let name = property(file.name).withoutControlCharacters
            if let problem = file.problem {
                out += "::error file=\(name),title=file.unreadable::\(data(problem))\n"
            }
            for d in file.diagnostics {
                out +=
                    "::\(d.severity.rawValue) file=\(name),line=\(d.location.line),col=\(d.location.column),"
                out += "title=\(property(d.id))::\(data(d.message))\n"
                // Notes as notices on their own lines, so the related place is annotated too.
                for note in notes ? d.notes : [] {
                    out +=
                        "::notice file=\(name),line=\(note.location.line),col=\(note.location.column),"
                    out += "title=\(property(d.id))::\(data(note.message))\n"
                }
            }
        }
        out += files.summary + "\n"
        return out
    }

    /// A command's message.
    static func data(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A command's property value.
    static func property(_ text: String) -> String {
        data(text).replacingColonsAndCommas()
    }
}

private extension String {
    func replacingColonsAndCommas() -> String {
        var out = ""
        for scalar in unicodeScalars {
            switch scalar {
            case ":": out += "%3A"
            case ",": out += "%2C"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
