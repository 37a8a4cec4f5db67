import Pricing
import Promotions
import StrictJSON

/// `{"files": [{"path", "diagnostics": [{"id", "severity", "message", "line", "column", "promotion"}]}],
/// "errors": N, "warnings": N, "unreadable": N}`, one document; a diagnostic with notes also has
/// `"notes": [{"message", "line", "column"}]`; a file that could not be read has `"error"` and no
/// diagnostics.
public enum JSONReporter {
    public static func render(_ files: [CheckedFile]) -> String {
        var text: [UInt8] = []
        render(files) { text.append(contentsOf: $0) }
        return String(decoding: text, as: UTF8.self)
    }

    /// The report a chunk at a time, to be written out as it is made: a large one is never held
    /// whole (`checkout validate --format json`). The same bytes as ``renderPlain(_:)``, written
    /// without a string per piece; with `parts`, blocks of diagnostics are written on them at once.
    public static func render(
        _ files: [CheckedFile], parts: PartRunner? = nil, into write: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        withoutActuallyEscaping(write) { write in
            var out = ReportBytes(write: write)
            out.append("{\n  \"files\": [")
            for (index, file) in files.enumerated() {
                out.append(index == 0 ? "\n    {\n      \"path\": " : ",\n    {\n      \"path\": ")
                out.appendJSONString(file.name)
                if let problem = file.problem {
                    out.append(",\n      \"error\": ")
                    out.appendJSONString(problem)
                }
                out.append(",\n      \"diagnostics\": [")
                let diagnostics = file.diagnostics
                out.appendItems(diagnostics.count, parts: parts) { index, out in
                    append(diagnostics[index], first: index == 0, to: &out)
                }
                out.append(diagnostics.isEmpty ? "]\n    }" : "\n      ]\n    }")
            }
            out.append(files.isEmpty ? "],\n  \"errors\": " : "\n  ],\n  \"errors\": ")
            let read = files.read
            out.append(decimal: read.errorCount)
            out.append(",\n  \"warnings\": ")
            out.append(decimal: read.warningCount)
            out.append(",\n  \"unreadable\": ")
            out.append(decimal: files.unreadableCount)
            out.append("\n}\n")
            out.finish()
        }
    }

    /// `, "line": L, "column": C` on lines starting with `indent`, as bytes.
    private static func appendPlace(line: Int, column: Int, indent: String, to out: inout ReportBytes) {
        out.append(",")
        out.append(indent)
        out.append("\"line\": ")
        out.append(decimal: line)
        out.append(",")
        out.append(indent)
        out.append("\"column\": ")
        out.append(decimal: column)
    }

    /// One element of a file's `diagnostics` array, with the comma before it unless `first`.
    private static func append(_ d: Diagnostic, first: Bool, to out: inout ReportBytes) {
        out.append(first ? "\n        {\n          \"id\": " : ",\n        {\n          \"id\": ")
        out.appendJSONString(d.id)
        out.append(",\n          \"severity\": ")
        out.appendJSONString(d.severity.rawValue)
        out.append(",\n          \"message\": ")
        out.appendJSONString(d.message)
        appendPlace(line: d.location.line, column: d.location.column, indent: "\n          ", to: &out)
        out.append(",\n          \"promotion\": ")
        if let promotion = d.promotion { out.appendJSONString(promotion) } else { out.append("null") }
        if !d.notes.isEmpty {
            out.append(",\n          \"notes\": [")
            for (index, note) in d.notes.enumerated() {
                out.append(
                    index == 0
                        ? "\n            {\n              \"message\": "
                        : ",\n            {\n              \"message\": ")
                out.appendJSONString(note.message)
                appendPlace(
                    line: note.location.line, column: note.location.column, indent: "\n              ", to: &out)
                out.append("\n            }")
            }
            out.append("\n          ]")
        }
        out.append("\n        }")
    }

    /// The report built piece by piece by ``JSONWriter``: the plain form ``render(_:into:)`` must
    /// equal byte for byte.
    static func renderPlain(_ files: [CheckedFile]) -> String {
        let out = JSONWriter(pretty: true)
        out.object {
            out.member("files") {
                out.array(files) { file in
                    out.object {
                        out.member("path") { out.string(file.name) }
                        if let problem = file.problem { out.member("error") { out.string(problem) } }
                        out.member("diagnostics") {
                            out.array(file.diagnostics) { d in
                                out.object {
                                    out.member("id") { out.string(d.id) }
                                    out.member("severity") { out.string(d.severity.rawValue) }
                                    out.member("message") { out.string(d.message) }
                                    out.member("line") { out.raw(String(d.location.line)) }
                                    out.member("column") { out.raw(String(d.location.column)) }
                                    out.member("promotion") { d.promotion.map { out.string($0) } ?? out.raw("null") }
                                    if !d.notes.isEmpty {
                                        out.member("notes") {
                                            out.array(d.notes) { note in
                                                out.object {
                                                    out.member("message") { out.string(note.message) }
                                                    out.member("line") { out.raw(String(note.location.line)) }
                                                    out.member("column") { out.raw(String(note.location.column)) }
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            out.member("errors") { out.raw(String(files.read.errorCount)) }
            out.member("warnings") { out.raw(String(files.read.warningCount)) }
            out.member("unreadable") { out.raw(String(files.unreadableCount)) }
        }
        return out.text + "\n"
    }
}
