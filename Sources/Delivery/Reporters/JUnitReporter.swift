import Promotions

/// JUnit XML: a testsuite per file and a testcase per promotion; each error is a `<failure>`, each
/// warning a line of the testcase's `<system-out>` — or, when warnings fail the run (`validate
/// --strict`), a `<failure>` too. Problems outside any promotion (malformed XML, root keys) belong
/// to a testcase named after the file.
public enum JUnitReporter {
    public static func render(_ files: [CheckedFile], warningsFail: Bool = false) -> String {
        var suites = ""
        var totalTests = 0
        var totalFailures = 0
        var totalErrors = 0
        for checked in files {
            guard case .read(let file) = checked else {
                // A file never checked is an error of its own testcase: the results view shows it red.
                let problem = checked.problem ?? ""
                totalTests += 1
                totalErrors += 1
                suites +=
                    "  <testsuite name=\"\(escape(checked.name))\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\">\n"
                suites += "    <testcase classname=\"\(escape(checked.name))\" name=\"(file)\">\n"
                suites +=
                    "      <error type=\"file.unreadable\" message=\"\(escape(problem))\">\(escape(checked.name + ": error: " + problem))</error>\n"
                suites += "    </testcase>\n  </testsuite>\n"
                continue
            }
            var cases: [(name: String, diagnostics: [Diagnostic])] = [("(file)", [])]
            cases += file.entries.map { ($0.label, []) }
            for d in file.diagnostics {
                cases[d.entry.map { $0 + 1 } ?? 0].diagnostics.append(d)
            }
            var body = ""
            var failures = 0
            for testCase in cases {
                let errors = testCase.diagnostics.filter { $0.severity == .error || warningsFail }
                let warnings = testCase.diagnostics.filter { $0.severity == .warning && !warningsFail }
                body += "    <testcase classname=\"\(escape(file.name))\" name=\"\(escape(testCase.name))\""
                guard !testCase.diagnostics.isEmpty else {
                    body += "/>\n"
                    continue
                }
                body += ">\n"
                if !errors.isEmpty { failures += 1 }
                for d in errors {
                    body += "      <failure type=\"\(escape(d.id))\" message=\"\(escape(d.message))\">"
                    body += escape(TextReporter.line(d, file: file.name, notes: true)) + "</failure>\n"
                }
                if !warnings.isEmpty {
                    body +=
                        "      <system-out>"
                        + warnings.map { escape(TextReporter.line($0, file: file.name, notes: true)) }.joined(
                            separator: "\n")
                        + "</system-out>\n"
                }
                body += "    </testcase>\n"
            }
            totalTests += cases.count
            totalFailures += failures
            suites +=
                "  <testsuite name=\"\(escape(file.name))\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\">\n"
            suites += body + "  </testsuite>\n"
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"checkout validate\" tests=\"\(totalTests)\" failures=\"\(totalFailures)\" errors=\"\(totalErrors)\">\n"
            + suites + "</testsuites>\n"
    }

    /// Escapes text for XML content and attribute values; characters XML 1.0 cannot hold become U+FFFD.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n": out += "&#10;"
            case "\t", "\r": out += "&#\(scalar.value);"
            case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
