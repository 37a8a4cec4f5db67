import PlistReader
import Testing

@Suite("Reading values")
struct ReadingValuesTests {
    @Test("an array root streams its items, each with its line, column and exact text")
    func arrayRootStreamsItems() {
        let recorder = read(
            header + """
                <plist version="1.0">
                <array>
                  <dict>
                    <key>price</key>
                    <real>19.99</real>
                    <key>codes</key><array><string>A</string> <string>B &amp; C</string></array>
                  </dict>
                  <integer> 42 </integer>
                  <true/>
                </array>
                </plist>
                """)
        #expect(recorder.issues == [])
        #expect(
            recorder.values == [
                "dict@5:3[key@6:5(price),real@7:5(19.99),key@8:5(codes),array@8:21[string@8:28(A),string@8:47(B & C)]]",
                "integer@10:3( 42 )",
                "true@11:3"
            ])
        #expect(
            recorder.events == [
                "open array@4:1 depth 0", "value depth 1", "value depth 1", "value depth 1", "close array depth 0"
            ])
    }

    @Test("a root that is not streamed arrives whole")
    func wholeRoot() {
        let recorder = read(
            "<plist><dict><key>a</key><date>2026-12-01T00:00:00Z</date><key>b</key><false/></dict></plist>",
            stream: { _, _, _ in false })
        #expect(recorder.issues == [])
        #expect(recorder.values == ["dict@1:8[key@1:14(a),date@1:26(2026-12-01T00:00:00Z),key@1:59(b),false@1:71]"])
    }

    @Test("a dict root streams a chosen key and delivers keys with their values")
    func dictRootStreamsChosenKey() {
        let recorder = read(
            """
            <plist>
            <dict>
              <key>currency</key> <string>EUR</string>
              <key>promotions</key>
              <array>
                <dict><key>name</key><string>X</string></dict>
              </array>
            </dict>
            </plist>
            """, stream: { kind, depth, key in depth == 0 || (kind == .array && key?.name == "promotions") })
        #expect(recorder.issues == [])
        #expect(
            recorder.events == [
                "open dict@2:1 depth 0",
                "value depth 1 key currency@3:3",
                "open array@5:3 depth 1 key promotions@4:3",
                "value depth 2",
                "close array depth 1",
                "close dict depth 0"
            ])
        #expect(recorder.values == ["string@3:23(EUR)", "dict@6:5[key@6:11(name),string@6:26(X)]"])
    }

    @Test("columns count characters, not bytes")
    func columnsCountCharacters() {
        let recorder = read("<plist><array>\n<string>é€😀</string><integer>1</integer>\n</array></plist>")
        #expect(recorder.values == ["string@2:1(é€😀)", "integer@2:21(1)"])
    }

    @Test("a tag split over lines is located at its '<'")
    func multiLineTag() {
        let recorder = read("<plist><array>\n  <integer\n   >7</integer>\n</array></plist>")
        #expect(recorder.values == ["integer@2:3(7)"])
    }

    @Test("line numbers go past 65535")
    func bigLineNumbers() {
        let filler = String(repeating: "\n", count: 70_000)
        let recorder = read("<plist><array>\(filler)<string>far</string></array></plist>")
        #expect(recorder.values == ["string@70001:1(far)"])
    }

    @Test("locations stay right across read chunks")
    func locationsAcrossChunks() {
        let item = "  <dict><key>name</key><string>promotion</string></dict>\n"
        let count = 20_000  // about 1.1 MB: several 256 KiB chunks
        let recorder = read("<plist><array>\n" + String(repeating: item, count: count) + "</array></plist>")
        #expect(recorder.issues == [])
        #expect(recorder.values.count == count)
        #expect(
            recorder.values.last == "dict@\(count + 1):3[key@\(count + 1):9(name),string@\(count + 1):24(promotion)]")
    }

    @Test("CDATA and character references are text")
    func cdataAndCharacterReferences() {
        let recorder = read("<plist><array><string><![CDATA[a<b]]>&#233;</string></array></plist>")
        #expect(recorder.issues == [])
        #expect(recorder.values == ["string@1:15(a<bé)"])
    }

    @Test("a UTF-8 byte order mark is accepted")
    func byteOrderMark() {
        let recorder = read("\u{FEFF}<plist><array><integer>1</integer></array></plist>")
        #expect(recorder.issues == [])
        #expect(recorder.values == ["integer@1:15(1)"])
    }
}

@Suite("Structure problems")
struct StructureTests {
    func structureIssues(_ body: String) -> [String] {
        read("<plist>\n" + body + "\n</plist>").issues.map { "\($0.kind) \($0.location) \($0.message)" }
    }

    @Test("a key without a value is reported and dropped")
    func keyWithoutValue() {
        let recorder = read(
            "<plist><array><dict>\n<key>a</key>\n<key>b</key><integer>1</integer>\n<key>c</key></dict></array></plist>")
        #expect(
            recorder.issues.map { "\($0.kind) \($0.location) \($0.message)" } == [
                "structure 2:1 <key>a</key> has no value",
                "structure 4:1 <key>c</key> has no value"
            ])
        #expect(recorder.values == ["dict@1:15[key@3:1(b),integer@3:13(1)]"])
    }

    @Test("a value without a key is reported and skipped")
    func valueWithoutKey() {
        let recorder = read("<plist><array><dict>\n<string>x</string><key>a</key><true/></dict></array></plist>")
        #expect(
            recorder.issues.map { "\($0.location) \($0.message)" } == ["2:1 a <string> in a <dict> must follow a <key>"]
        )
        #expect(recorder.values == ["dict@1:15[key@2:19(a),true@2:31]"])
    }

    @Test("unknown elements are reported, skipped with their content, and take their key along")
    func unknownElement() {
        let recorder = read(
            "<plist><array><dict><key>a</key>\n<foo><bar/></foo><key>b</key><integer>2</integer></dict></array></plist>"
        )
        #expect(
            recorder.issues.map { "\($0.location) \($0.message)" } == [
                "2:1 unknown element <foo>; expected one of <dict>, <array>, <string>, <integer>, <real>, <true/>, <false/>, <date>, <data>"
            ])
        #expect(recorder.values == ["dict@1:15[key@2:18(b),integer@2:30(2)]"])
    }

    @Test("each misplacement has its own message")
    func misplacements() {
        #expect(
            structureIssues("<array><key>k</key></array>") == [
                "structure 2:8 a <key> must be inside a <dict>, not an <array>"
            ])
        #expect(
            structureIssues("<array>x</array>") == [
                "structure 2:9 text is not allowed directly inside <array>; put it in a <string>"
            ])
        #expect(
            structureIssues("<array><string><integer>1</integer></string></array>") == [
                "structure 2:16 <string> holds text, not a <integer> element"
            ])
        #expect(structureIssues("<array><true>yes</true></array>") == ["structure 2:8 <true/> must be empty"])
        #expect(
            structureIssues("<array/><array/>") == [
                "structure 2:9 <plist> must hold exactly one value; this <array> is a second one"
            ])
        #expect(structureIssues("<key>k</key>") == ["structure 2:1 a <key> must be inside a <dict>"])
        #expect(
            structureIssues("<array><plist/></array>").first?.hasPrefix(
                "structure 2:8 <plist> may only be the root element") == true)
        #expect(structureIssues("") == ["structure 1:1 <plist> holds no value"])
    }

    @Test("the root element must be plist")
    func rootMustBePlist() {
        let recorder = read("<array><string>a</string></array>")
        #expect(
            recorder.issues.map { "\($0.location) \($0.message)" } == [
                "1:1 the root element must be <plist>, not <array>"
            ])
        #expect(recorder.values == [])
    }
}

@Suite("Malformed and hostile XML")
struct HostileTests {
    func fatal(_ xml: String, limits: PlistLimits = .default) -> PlistIssue? {
        let issues = read(xml, limits: limits).issues
        #expect(issues.filter(\.isFatal).count <= 1)
        return issues.last
    }

    @Test("malformed XML stops with libxml2's line and column")
    func malformed() {
        let issue = fatal("<plist>\n<array>\n  <string>a</strin>\n</array></plist>")
        #expect(issue?.kind == .malformed)
        #expect(issue?.location == SourceLocation(line: 3, column: 20))
        #expect(issue?.message == "Opening and ending tag mismatch: string line 3 and strin")
    }

    @Test("empty, truncated and non-XML files are malformed")
    func emptyAndTruncated() {
        #expect(fatal("")?.kind == .malformed)
        #expect(fatal("<plist><array><string>a")?.kind == .malformed)
        #expect(fatal("hello")?.kind == .malformed)
        #expect(fatal("<plist><array>\u{0}</array></plist>")?.kind == .malformed)
    }

    @Test("invalid UTF-8 is malformed, whatever the declared encoding")
    func invalidUTF8() {
        var bytes = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><plist><array><string>".utf8)
        bytes += [0xE9]
        bytes += Array("</string></array></plist>".utf8)
        let recorder = Recorder()
        PlistStreamReader.read(bytes: bytes, name: "latin1.plist", handler: recorder)
        #expect(recorder.issues.map(\.kind) == [.malformed])
    }

    @Test("entity declarations are forbidden: billion laughs")
    func billionLaughs() {
        let issue = fatal(
            """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [
              <!ENTITY lol "lol">
              <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
            ]>
            <plist><string>&lol2;</string></plist>
            """)
        #expect(issue?.kind == .forbidden)
        #expect(issue?.location.line == 3)
        #expect(issue?.message == "entity declarations are not allowed (entity \"lol\")")
    }

    @Test("an external entity on file:// is refused and never read")
    func externalEntity() {
        let recorder = read(
            """
            <?xml version="1.0"?>
            <!DOCTYPE plist [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>
            <plist><string>&xxe;</string></plist>
            """)
        #expect(recorder.issues.map(\.kind) == [.forbidden])
        #expect(recorder.values == [])
    }

    @Test("external DTDs other than Apple's are refused; Apple's is accepted, never loaded")
    func externalDTD() {
        #expect(
            fatal("<!DOCTYPE plist SYSTEM \"file:///etc/passwd\"><plist><true/></plist>")?.message
                == "DOCTYPE names the external DTD \"file:///etc/passwd\"; only Apple's plist DTD is allowed")
        #expect(
            fatal("<!DOCTYPE plist PUBLIC \"-//Evil//EN\" \"http://127.0.0.1:9/x.dtd\"><plist><true/></plist>")?.kind
                == .forbidden)
        let apple = read(header + "<plist><array><true/></array></plist>")
        #expect(apple.issues == [])
        #expect(apple.values == ["true@3:15"])
    }

    @Test("an undeclared entity is refused even under Apple's DOCTYPE")
    func undeclaredEntity() {
        #expect(fatal(header + "<plist><array><string>&nbsp;</string></array></plist>")?.kind == .forbidden)
        #expect(fatal("<plist><array><string>&nbsp;</string></array></plist>") != nil)
    }

    @Test("limits: depth, text length, elements per value and file size")
    func limits() {
        let deep = "<plist>" + String(repeating: "<array>", count: 100_000)
        let depth = fatal(deep)
        #expect(depth?.kind == .forbidden)
        #expect(depth?.message == "elements nest deeper than 64 levels")

        let text = fatal(
            "<plist><array><string>\(String(repeating: "x", count: 2_000))</string></array></plist>",
            limits: PlistLimits(maxTextLength: 1_000))
        #expect(text?.message == "the text of this <string> is longer than 1000 bytes")

        let many = fatal(
            "<plist><array><array>" + String(repeating: "<true/>", count: 11) + "</array></array></plist>",
            limits: PlistLimits(maxValueElements: 10))
        #expect(many?.message == "one value holds more than 10 elements")

        let size = fatal("<plist><array/></plist>", limits: PlistLimits(maxFileSize: 10))
        #expect(size?.message == "the file is larger than 10 bytes")
    }
}

@Suite("Files")
struct FileTests {
    @Test("a missing file or a directory is a file error")
    func unreadable() {
        #expect(throws: PlistFileError(path: "/nonexistent/P.plist", reason: "No such file or directory")) {
            try PlistStreamReader.read(contentsOf: "/nonexistent/P.plist", handler: Recorder())
        }
        #expect(throws: PlistFileError(path: "/tmp", reason: "is a directory")) {
            try PlistStreamReader.read(contentsOf: "/tmp", handler: Recorder())
        }
    }
}
