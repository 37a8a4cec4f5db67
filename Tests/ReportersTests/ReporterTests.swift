import Promotions
import StrictJSON
import Testing

@testable import Reporters

@Suite("Reporters")
struct ReporterTests {
    let files = fixtureFiles()

    @Test("text: FILE:LINE:COL: severity: MESSAGE [ID], one line each, then a summary")
    func text() {
        #expect(
            ReporterKind.text.render(files) == """
                rules/odd:name, v1.plist:3:54: error: `percent` must be greater than 0 and at most 100, not 150 [promotion.invalid-value]
                rules/odd:name, v1.plist:5:15: warning: the promotion ended at 2026-01-01T00:00:00Z, before 2026-11-21T10:00:00Z: it no longer applies; remove it or move its `end` [promotion.expired]
                rules/odd:name, v1.plist:5:48: warning: unknown key `a\\nb` is ignored; known keys: name, id, type, code, codes, quantity, paid, price, percent, amount, minimum, start, end, priority, enabled, coupon, limit, cap, get, targets, products, customer_groups, uses, uses_per_customer [promotion.unknown-key]
                1 error, 2 warnings in 2 files

                """)
        #expect(ReporterKind.text.render([PromotionFile]()) == "0 errors, 0 warnings in 0 files\n")
    }

    @Test("json: the docs/command-line.md shape")
    func json() throws {
        let document = try JSONParser().parse(ReporterKind.json.render(files))
        #expect(document["errors"] == .number("1"))
        #expect(document["warnings"] == .number("2"))
        guard case .array(let list)? = document["files"], list.count == 2 else {
            Issue.record("files must be an array of two")
            return
        }
        #expect(list[0]["path"] == .string("rules/odd:name, v1.plist"))
        #expect(list[1] == .object([("path", .string("clean.plist")), ("diagnostics", .array([]))]))
        guard case .array(let diagnostics)? = list[0]["diagnostics"] else {
            Issue.record("diagnostics must be an array")
            return
        }
        #expect(
            diagnostics[0]
                == .object([
                    ("id", .string("promotion.invalid-value")), ("severity", .string("error")),
                    ("message", .string("`percent` must be greater than 0 and at most 100, not 150")),
                    ("line", .number("3")), ("column", .number("54")), ("promotion", .string("50% off, \"mugs\""))
                ]))
        #expect(diagnostics.map { $0["severity"] } == [.string("error"), .string("warning"), .string("warning")])
    }

    @Test("github: workflow commands, escaped as the runner expects")
    func github() {
        let output = ReporterKind.github.render(files)
        #expect(
            output == """
                ::error file=rules/odd%3Aname%2C v1.plist,line=3,col=54,title=promotion.invalid-value::`percent` must be greater than 0 and at most 100, not 150
                ::warning file=rules/odd%3Aname%2C v1.plist,line=5,col=15,title=promotion.expired::the promotion ended at 2026-01-01T00:00:00Z, before 2026-11-21T10:00:00Z: it no longer applies; remove it or move its `end`
                ::warning file=rules/odd%3Aname%2C v1.plist,line=5,col=48,title=promotion.unknown-key::unknown key `a\\nb` is ignored; known keys: name, id, type, code, codes, quantity, paid, price, percent, amount, minimum, start, end, priority, enabled, coupon, limit, cap, get, targets, products, customer_groups, uses, uses_per_customer
                1 error, 2 warnings in 2 files

                """)
        #expect(GitHubReporter.data("100% done\r\nnext") == "100%25 done%0D%0Anext")
        #expect(GitHubReporter.property("a:b,c%d\n") == "a%3Ab%2Cc%25d%0A")
        for line in output.split(separator: "\n").dropLast() {
            #expect(isWorkflowCommand(String(line)), "\(line)")
        }
    }

    @Test("junit: a testsuite per file, a testcase per promotion, failures for errors")
    func junit() {
        #expect(
            ReporterKind.junit.render(files) == """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites name="checkout validate" tests="5" failures="1" errors="0">
                  <testsuite name="rules/odd:name, v1.plist" tests="3" failures="1" errors="0" skipped="0">
                    <testcase classname="rules/odd:name, v1.plist" name="(file)"/>
                    <testcase classname="rules/odd:name, v1.plist" name="50% off, &quot;mugs&quot;">
                      <failure type="promotion.invalid-value" message="`percent` must be greater than 0 and at most 100, not 150">rules/odd:name, v1.plist:3:54: error: `percent` must be greater than 0 and at most 100, not 150 [promotion.invalid-value]</failure>
                    </testcase>
                    <testcase classname="rules/odd:name, v1.plist" name="ok">
                      <system-out>rules/odd:name, v1.plist:5:15: warning: the promotion ended at 2026-01-01T00:00:00Z, before 2026-11-21T10:00:00Z: it no longer applies; remove it or move its `end` [promotion.expired]
                rules/odd:name, v1.plist:5:48: warning: unknown key `a\\nb` is ignored; known keys: name, id, type, code, codes, quantity, paid, price, percent, amount, minimum, start, end, priority, enabled, coupon, limit, cap, get, targets, products, customer_groups, uses, uses_per_customer [promotion.unknown-key]</system-out>
                    </testcase>
                  </testsuite>
                  <testsuite name="clean.plist" tests="2" failures="0" errors="0" skipped="0">
                    <testcase classname="clean.plist" name="(file)"/>
                    <testcase classname="clean.plist" name="c"/>
                  </testsuite>
                </testsuites>

                """)
        #expect(JUnitReporter.escape("a<b>&\"c\"\u{1}\n") == "a&lt;b&gt;&amp;&quot;c&quot;\u{FFFD}&#10;")
    }

    @Test("junit with --strict: warnings fail their testcase too, so the results view is red when the run is")
    func junitStrict() {
        let report = ReporterKind.junit.render(files, strict: true)
        #expect(report.contains(#"<testsuites name="checkout validate" tests="5" failures="2" errors="0">"#))
        #expect(
            report.contains(
                #"<testsuite name="rules/odd:name, v1.plist" tests="3" failures="2" errors="0" skipped="0">"#))
        // The "ok" promotion's two warnings, each a failure of its own; nothing left in <system-out>.
        #expect(
            report.contains(
                """
                    <testcase classname="rules/odd:name, v1.plist" name="ok">
                      <failure type="promotion.expired" message="the promotion ended at 2026-01-01T00:00:00Z, before 2026-11-21T10:00:00Z: it no longer applies; remove it or move its `end`">rules/odd:name, v1.plist:5:15: warning: the promotion ended at 2026-01-01T00:00:00Z, before 2026-11-21T10:00:00Z: it no longer applies; remove it or move its `end` [promotion.expired]</failure>
                      <failure type="promotion.unknown-key" message="unknown key `a\\nb` is ignored; known keys:
                """))
        #expect(!report.contains("<system-out>"))
        #expect(report.ranges(of: "<failure ").count == 3)
    }

    @Test("sarif: 2.1.0 with its required fields, every rule in the driver, results pointing at rules")
    func sarif() throws {
        let document = try JSONParser().parse(ReporterKind.sarif.render(files))
        #expect(document["version"] == .string("2.1.0"))
        #expect(document["$schema"] == .string("https://json.schemastore.org/sarif-2.1.0.json"))
        guard case .array(let runs)? = document["runs"], runs.count == 1, let driver = runs[0]["tool"]?["driver"],
            case .array(let rules)? = driver["rules"], case .array(let results)? = runs[0]["results"]
        else {
            Issue.record("runs[0].tool.driver.rules and runs[0].results are required")
            return
        }
        #expect(driver["name"] == .string("checkout"))
        // Columns count characters, as every reporter's do (a line with 𝄞 before the element).
        #expect(runs[0]["columnKind"] == .string("unicodeCodePoints"))
        #expect(rules.map { $0["id"] } == DiagnosticRule.allCases.map { .string($0.id) })
        #expect(rules.allSatisfy { $0["shortDescription"]?["text"] != nil })
        #expect(results.count == 3)
        for result in results {
            guard case .string(let ruleID)? = result["ruleId"], case .number(let index)? = result["ruleIndex"],
                case .array(let locations)? = result["locations"], let location = locations.first?["physicalLocation"]
            else {
                Issue.record("ruleId, ruleIndex and locations are required: \(result)")
                continue
            }
            #expect(rules[Int(index)!]["id"] == .string(ruleID))
            #expect([.string("error"), .string("warning")].contains(result["level"]))
            #expect(result["message"]?["text"] != nil)
            #expect(location["artifactLocation"]?["uri"] == .string("rules/odd%3Aname%2C%20v1.plist"))
            #expect(location["region"]?["startLine"] != nil && location["region"]?["startColumn"] != nil)
        }
        #expect(results[0]["region"] == nil)
        #expect(
            results[0]["locations"]
                == .array([
                    .object([
                        (
                            "physicalLocation",
                            .object([
                                (
                                    "artifactLocation",
                                    .object([
                                        ("uri", .string("rules/odd%3Aname%2C%20v1.plist")), ("index", .number("0"))
                                    ])
                                ),
                                ("region", .object([("startLine", .number("3")), ("startColumn", .number("54"))]))
                            ])
                        )
                    ])
                ]))
        #expect(SARIFReporter.uri("/abs/Promotions plist.plist") == "file:///abs/Promotions%20plist.plist")
        #expect(SARIFReporter.uri("Rules/Promotions.plist") == "Rules/Promotions.plist")
    }
}

@Suite("Notes: related locations in every reporter")
struct NoteTests {
    /// A duplicate id: the diagnostic at the second promotion, its note at the first.
    let files = [
        PromotionFile.load(
            bytes: Array(
                """
                <plist><array>
                <dict><key>name</key><string>A</string><key>type</key><string>cart</string><key>amount</key><integer>1</integer></dict>
                <dict><key>name</key><string>A</string><key>type</key><string>cart</string><key>amount</key><integer>2</integer></dict>
                </array></plist>
                """.utf8), name: "p.plist")
    ]

    @Test(
        "text (with --notes) and JUnit: a note line after the diagnostic; JSON: notes; GitHub (with --notes): a notice; SARIF: relatedLocations"
    )
    func notes() throws {
        let diagnostic =
            "p.plist:3:22: error: duplicate promotion id `A` (its id defaults to its name): the promotion at line 2 already uses it; give each promotion a unique `id` [promotion.duplicate-id]\n"
        // By default one line per diagnostic, as the format is read by scripts; its message names the line.
        #expect(ReporterKind.text.render(files) == diagnostic + "1 error, 0 warnings in 1 file\n")
        #expect(
            ReporterKind.text.render(files, notes: true)
                == diagnostic + "p.plist:2:22: note: `A` is first used here\n1 error, 0 warnings in 1 file\n")
        var streamed: [UInt8] = []
        ReporterKind.text.write(files.map(CheckedFile.read), notes: true) { streamed += $0 }
        #expect(String(decoding: streamed, as: UTF8.self) == ReporterKind.text.render(files, notes: true))
        #expect(ReporterKind.junit.render(files).contains("p.plist:2:22: note: `A` is first used here"))
        let json = try JSONParser().parse(ReporterKind.json.render(files))
        guard case .array(let list)? = json["files"], case .array(let diagnostics)? = list.first?["diagnostics"] else {
            Issue.record("files[0].diagnostics is required")
            return
        }
        #expect(
            diagnostics.first?["notes"]
                == .array([
                    .object([
                        ("message", .string("`A` is first used here")), ("line", .number("2")),
                        ("column", .number("22"))
                    ])
                ]))
        #expect(!ReporterKind.github.render(files).contains("::notice"))
        let github = ReporterKind.github.render(files, notes: true)
        #expect(
            github.contains(
                "::notice file=p.plist,line=2,col=22,title=promotion.duplicate-id::`A` is first used here\n"))
        for line in github.split(separator: "\n").dropLast() { #expect(isWorkflowCommand(String(line)), "\(line)") }
        let sarif = try JSONParser().parse(ReporterKind.sarif.render(files))
        guard case .array(let runs)? = sarif["runs"], case .array(let results)? = runs.first?["results"],
            case .array(let related)? = results.first?["relatedLocations"]
        else {
            Issue.record("runs[0].results[0].relatedLocations is required")
            return
        }
        #expect(
            related.first?["physicalLocation"]?["region"]
                == .object([("startLine", .number("2")), ("startColumn", .number("22"))]))
        #expect(related.first?["message"]?["text"] == .string("`A` is first used here"))
    }
}

/// `::error|warning|notice file=…,line=N,col=N,title=…::message` with nothing unescaped that would end a
/// property or the command early.
func isWorkflowCommand(_ line: String) -> Bool {
    guard line.hasPrefix("::error ") || line.hasPrefix("::warning ") || line.hasPrefix("::notice ") else {
        return false
    }
    let body = Array(line.drop(while: { $0 != " " }).dropFirst())
    guard let split = body.indices.dropLast().first(where: { body[$0] == ":" && body[$0 + 1] == ":" }) else {
        return false
    }
    let properties = String(body[..<split]).split(separator: ",")
    let names = properties.map { $0.split(separator: "=", maxSplits: 1).first.map(String.init) ?? "" }
    guard names == ["file", "line", "col", "title"] else { return false }
    for property in properties {
        let value = property.split(separator: "=", maxSplits: 1).last ?? ""
        if value.contains(":") || value.contains("\r") { return false }
    }
    let message = String(body[(split + 2)...])
    return !message.contains("\n") && !message.contains("\r")
}
