import Pricing
import Promotions

/// `FILE:LINE:COL: error|warning: MESSAGE [ID]`, one per line, then a summary: the format compilers
/// use, which editors and most CI log viewers turn into links. With `notes`, each diagnostic is
/// followed by its notes (`FILE:LINE:COL: note: MESSAGE`, the related place its message names in
/// words); without, a diagnostic is exactly one line, as scripts reading the report expect.
///
/// A file's name is written with its control characters escaped (`String.withoutControlCharacters`):
/// a name with a line break or an escape sequence cannot forge a line of the report or colour a
/// log, and every other name, backslashes included, is written as given, for editors to open.
public enum TextReporter {
    public static func line(_ diagnostic: Diagnostic, file: String, notes: Bool = false) -> String {
        var text = ""
        append(diagnostic, file: file.withoutControlCharacters, notes: notes, to: &text)
        return text
    }

    /// Appends ``line(_:file:)`` piece by piece: a report can have tens of thousands.
    static func append(_ diagnostic: Diagnostic, file: String, notes: Bool, to text: inout String) {
        text += file
        text += ":"
        text += String(diagnostic.location.line)
        text += ":"
        text += String(diagnostic.location.column)
        text += ": "
        text += diagnostic.severity.rawValue
        text += ": "
        text += diagnostic.message
        text += " ["
        text += diagnostic.id
        text += "]"
        for note in notes ? diagnostic.notes : [] {
            text += "\n"
            text += file
            text += ":"
            text += String(note.location.line)
            text += ":"
            text += String(note.location.column)
            text += ": note: "
            text += note.message
        }
    }

    public static func render(_ files: [CheckedFile], notes: Bool = false) -> String {
        var out = ""
        render(files, notes: notes) { out += $0 }
        return out
    }

    /// The report a line at a time, to be written out as it is made: a large one is never held
    /// whole (`checkout validate`).
    public static func render(_ files: [CheckedFile], notes: Bool = false, into write: (String) -> Void) {
        var text = ""
        for file in files {
            let name = file.name.withoutControlCharacters
            if let problem = file.problem { write("\(name): error: \(problem)\n") }
            for diagnostic in file.diagnostics {
                text.removeAll(keepingCapacity: true)
                append(diagnostic, file: name, notes: notes, to: &text)
                text += "\n"
                write(text)
            }
        }
        write(files.summary + "\n")
    }

    /// ``render(_:into:)`` as bytes, a chunk at a time: the same bytes, written without a string
    /// per piece (`checkout validate`); with `parts`, blocks of diagnostics are written on them at once.
    public static func render(
        _ files: [CheckedFile], parts: PartRunner? = nil, notes: Bool = false,
        bytesInto write: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        withoutActuallyEscaping(write) { write in
            var out = ReportBytes(write: write)
            for file in files {
                let name = file.name.withoutControlCharacters
                if let problem = file.problem {
                    out.append(name)
                    out.append(": error: ")
                    out.append(problem)
                    out.append(byte: UInt8(ascii: "\n"))
                }
                let diagnostics = file.diagnostics
                out.appendItems(diagnostics.count, parts: parts) { index, out in
                    append(diagnostics[index], file: name, notes: notes, to: &out)
                }
            }
            out.append(files.summary)
            out.append(byte: UInt8(ascii: "\n"))
            out.finish()
        }
    }

    /// `file:line:column: `, as bytes.
    private static func appendPlace(_ file: String, line: Int, column: Int, to out: inout ReportBytes) {
        out.append(file)
        out.append(byte: UInt8(ascii: ":"))
        out.append(decimal: line)
        out.append(byte: UInt8(ascii: ":"))
        out.append(decimal: column)
        out.append(": ")
    }

    /// ``line(_:file:)`` and a line break, as bytes.
    private static func append(_ diagnostic: Diagnostic, file: String, notes: Bool, to out: inout ReportBytes) {
        appendPlace(file, line: diagnostic.location.line, column: diagnostic.location.column, to: &out)
        out.append(diagnostic.severity.rawValue)
        out.append(": ")
        out.append(diagnostic.message)
        out.append(" [")
        out.append(diagnostic.id)
        out.append("]\n")
        guard notes else { return }
        for note in diagnostic.notes {
            appendPlace(file, line: note.location.line, column: note.location.column, to: &out)
            out.append("note: ")
            out.append(note.message)
            out.append(byte: UInt8(ascii: "\n"))
        }
    }

    /// `2 errors, 1 warning in 3 files`.
    public static func summary(errors: Int, warnings: Int, files: Int) -> String {
        "\(counted(errors, "error")), \(counted(warnings, "warning")) in \(counted(files, "file"))"
    }

}
