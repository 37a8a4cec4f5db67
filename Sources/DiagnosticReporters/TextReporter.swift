import Promotions

/// `FILE:LINE:COL: error|warning: MESSAGE [ID]`, one per line, each followed by its notes
/// (`FILE:LINE:COL: note: MESSAGE`), then a summary: the format compilers use, which editors and most
/// CI log viewers turn into links.
public enum TextReporter {
    public static func line(_ diagnostic: Diagnostic, file: String) -> String {
        var text =
            "\(file):\(diagnostic.location.line):\(diagnostic.location.column): \(diagnostic.severity.rawValue): \(diagnostic.message) [\(diagnostic.id)]"
        for note in diagnostic.notes {
            text += "\n\(file):\(note.location.line):\(note.location.column): note: \(note.message)"
        }
        return text
    }

    public static func render(_ files: [CheckedFile]) -> String {
        var out = ""
        for file in files {
            if let problem = file.problem { out += "\(file.name): error: \(problem)\n" }
            for diagnostic in file.diagnostics { out += line(diagnostic, file: file.name) + "\n" }
        }
        return out + files.summary + "\n"
    }

    /// `2 errors, 1 warning in 3 files`.
    public static func summary(errors: Int, warnings: Int, files: Int) -> String {
        "\(count(errors, "error")), \(count(warnings, "warning")) in \(count(files, "file"))"
    }

    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}
