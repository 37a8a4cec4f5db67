import Promotions
import StrictJSON

/// SARIF 2.1.0: one run, every diagnostic rule listed in the driver, one result per diagnostic with
/// its rule, level, message and region, and its notes as related locations.
public enum SARIFReporter {
    public static func render(_ checked: [CheckedFile], tool: ToolInfo) -> String {
        let files = checked.read
        let rules = DiagnosticRule.allCases
        let out = JSONWriter(pretty: true)
        out.object {
            out.member("$schema") { out.string("https://json.schemastore.org/sarif-2.1.0.json") }
            out.member("version") { out.string("2.1.0") }
            out.member("runs") {
                out.array([tool]) { tool in
                    out.object {
                        out.member("tool") {
                            out.object {
                                out.member("driver") {
                                    out.object {
                                        out.member("name") { out.string(tool.name) }
                                        out.member("version") { out.string(tool.version) }
                                        out.member("informationUri") { out.string(tool.informationURI) }
                                        out.member("rules") { out.array(rules) { rule(out, $0) } }
                                    }
                                }
                            }
                        }
                        // A file that could not be read: the run did not fully succeed, and says why.
                        out.member("invocations") {
                            out.array([checked]) { checked in
                                out.object {
                                    out.member("executionSuccessful") {
                                        out.raw(checked.unreadableCount == 0 ? "true" : "false")
                                    }
                                    out.member("toolExecutionNotifications") {
                                        out.array(checked.filter { $0.problem != nil }) { file in
                                            out.object {
                                                out.member("level") { out.string("error") }
                                                out.member("message") {
                                                    out.object {
                                                        out.member("text") {
                                                            out.string("\(file.name): \(file.problem ?? "")")
                                                        }
                                                    }
                                                }
                                                out.member("locations") {
                                                    out.array([file]) { file in
                                                        out.object {
                                                            out.member("physicalLocation") {
                                                                out.object {
                                                                    out.member("artifactLocation") {
                                                                        out.object {
                                                                            out.member("uri") {
                                                                                out.string(uri(file.name))
                                                                            }
                                                                        }
                                                                    }
                                                                }
                                                            }
                                                        }
                                                    }
                                                }
                                                out.member("descriptor") {
                                                    out.object { out.member("id") { out.string("file.unreadable") } }
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                        out.member("artifacts") {
                            out.array(files) { file in
                                out.object {
                                    out.member("location") {
                                        out.object { out.member("uri") { out.string(uri(file.name)) } }
                                    }
                                }
                            }
                        }
                        out.member("results") {
                            let results = files.enumerated().flatMap { index, file in
                                file.diagnostics.map { (index, file, $0) }
                            }
                            out.array(results) { index, file, d in
                                out.object {
                                    out.member("ruleId") { out.string(d.id) }
                                    // Every rule is listed, so the index exists.
                                    out.member("ruleIndex") { out.raw(String(rules.firstIndex(of: d.rule)!)) }
                                    out.member("level") { out.string(d.severity.rawValue) }
                                    out.member("message") {
                                        out.object { out.member("text") { out.string(d.message) } }
                                    }
                                    out.member("locations") {
                                        out.array([d]) { d in
                                            out.object {
                                                physicalLocation(
                                                    out, file: file.name, index: index, line: d.location.line,
                                                    column: d.location.column)
                                            }
                                        }
                                    }
                                    if !d.notes.isEmpty {
                                        out.member("relatedLocations") {
                                            out.array(Array(d.notes.enumerated())) { number, note in
                                                out.object {
                                                    out.member("id") { out.raw(String(number + 1)) }
                                                    physicalLocation(
                                                        out, file: file.name, index: index, line: note.location.line,
                                                        column: note.location.column)
                                                    out.member("message") {
                                                        out.object { out.member("text") { out.string(note.message) } }
                                                    }
                                                }
                                            }
                                        }
                                    }
                                    if let promotion = d.promotion {
                                        out.member("properties") {
                                            out.object { out.member("promotion") { out.string(promotion) } }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return out.text + "\n"
    }

    static func rule(_ out: JSONWriter, _ rule: DiagnosticRule) {
        out.object {
            out.member("id") { out.string(rule.id) }
            out.member("shortDescription") { out.object { out.member("text") { out.string(rule.summary) } } }
            out.member("defaultConfiguration") {
                out.object { out.member("level") { out.string(rule.severity.rawValue) } }
            }
        }
    }

    /// A relative path as a relative URI reference; an absolute one as a `file://` URI. Characters
    /// outside the unreserved set and `/` are percent-encoded.
    /// A result's or a note's `physicalLocation`: the file, by URI and by its index in the run's
    /// artifacts, and the line and column.
    static func physicalLocation(_ out: JSONWriter, file: String, index: Int, line: Int, column: Int) {
        out.member("physicalLocation") {
            out.object {
                out.member("artifactLocation") {
                    out.object {
                        out.member("uri") { out.string(uri(file)) }
                        out.member("index") { out.raw(String(index)) }
                    }
                }
                out.member("region") {
                    out.object {
                        out.member("startLine") { out.raw(String(line)) }
                        out.member("startColumn") { out.raw(String(column)) }
                    }
                }
            }
        }
    }

    static func uri(_ path: String) -> String {
        var out = path.hasPrefix("/") ? "file://" : ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return out
    }
}
