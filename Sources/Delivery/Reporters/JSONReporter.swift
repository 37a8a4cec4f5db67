import Promotions
import StrictJSON

/// `{"files": [{"path", "diagnostics": [{"id", "severity", "message", "line", "column", "promotion"}]}],
/// "errors": N, "warnings": N, "unreadable": N}`, one document; a diagnostic with notes also has
/// `"notes": [{"message", "line", "column"}]`; a file that could not be read has `"error"` and no
/// diagnostics.
public enum JSONReporter {
    public static func render(_ files: [CheckedFile]) -> String {
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
