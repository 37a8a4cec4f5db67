import SeededRandom
import Testing

@_spi(Reference) @testable import PlistReader

/// The scanner reads a file only when it reads it exactly as libxml2 does: the same values, events,
/// locations and issues. Compared here on random files in many spellings, valid and not, read once
/// and in two halves.
@Suite("PlistScanner against libxml2")
struct PlistScannerTests {
    @Test("3,000 random files: the scanner, when it takes a file, delivers what libxml2 delivers")
    func differential() {
        var maker = RandomPlist(seed: 0x5CA7)
        var taken = 0
        var left = 0
        for round in 0..<3_000 {
            let bytes = maker.file()
            let reference = record(bytes, engine: .libxml2)
            let scanned = record(bytes, engine: .scannerFirst)
            let accepted = bytes.withUnsafeBytes { PlistScanner.accepts($0, limits: .default) }
            if accepted { taken += 1 } else { left += 1 }
            #expect(
                scanned == reference,
                "file \(round) (scanner \(accepted ? "took" : "left") it):\n\(String(decoding: bytes, as: UTF8.self))")
            if scanned != reference { return }
        }
        // Both ways are exercised: most files are the scanner's, many are left to libxml2.
        #expect(taken > 1_200)
        #expect(left > 500)
    }

    @Test("300 random large files read in two halves give what one libxml2 parser gives")
    func halves() {
        var maker = RandomPlist(seed: 0x4A1F)
        var split = 0
        for round in 0..<300 {
            let bytes = maker.file(items: 40 + round % 60)
            let reference = record(bytes, engine: .libxml2)
            let read = PlistHalves.read(bytes: bytes, name: "test.plist", from: 0) { HalvingRecorder() }
            if read.halves { split += 1 }
            let halves = Recording(read.handler.recorder)
            #expect(halves == reference, "file \(round):\n\(String(decoding: bytes, as: UTF8.self))")
            if halves != reference { return }
        }
        #expect(split > 100)
    }

    @Test(
        "what the first pass takes and leaves",
        arguments: [
            ("<plist><string>a</string></plist>", true),
            ("\u{FEFF}<?xml version='1.0' encoding='utf-8' standalone='yes'?>\r\n<plist><true/></plist>\r\n", true),
            ("<plist><string>a &amp; &lt;b&gt; &#38; &#x1F600; é 😀</string></plist>", true),
            ("<plist><!-- a < b & c --><dict ><key >k</key ><string/></dict ></plist>", true),
            ("<plist version=\"1.0\" other='2'><array/></plist>", true),
            ("<plist><string>a\rb</string></plist>", false),  // a lone CR
            ("<plist><string>a<![CDATA[<x> & ]] ]>\r\n]]>b</string></plist>", true),
            ("<plist><dict><![CDATA[ ]]></dict></plist>", false),  // CDATA in a container
            (
                "<?xml version=\"1.0\"?><?editor a<b & c?><plist><?pi?><string>a<?x-y_z.1 ?>b</string></plist><?end\r\n?>",
                true
            ),
            ("<plist><?xml-stylesheet href='a'?><true/></plist>", false),
            ("<plist><?XmL?><true/></plist>", false),
            ("<plist><?pi no end><true/></plist>", false),
            ("<plist><string>&#x100000000;</string></plist>", false),  // nine hex digits: no overflow
            ("<plist><string>&#xFFFFFFF;&#99999999;</string></plist>", false),
            ("<plist><string>&#x10FFFF;&#0000065;</string></plist>", true),
            ("<plist><string><![CDATA[x]]</string></plist>", false),
            ("<plist><string>a]]>b</string></plist>", false),
            ("<plist><string>&unknown;</string></plist>", false),
            ("<plist xmlns=\"urn:x\"><true/></plist>", false),
            ("<plist a='1' a='2'><true/></plist>", false),
            ("<plist><!-- a -- b --><true/></plist>", false),
            ("<plist><dict>text</dict></plist>", false),  // text in a container
            ("<plist><string>a<dict/></string></plist>", false),  // an element in a value
            ("<plist><Dict/></plist>", false),
            ("<plist><string>\u{1}</string></plist>", false),
            ("<?xml version=\"1.1\"?><plist><true/></plist>", false),
            (" <?xml version=\"1.0\"?><plist><true/></plist>", false),
            ("<!DOCTYPE plist [<!ENTITY a \"b\">]><plist><true/></plist>", false),
            ("<!DOCTYPE plist SYSTEM \"file:///etc/passwd\"><plist><true/></plist>", false),
            ("<plist><true/></plist><plist/>", false),
            ("<plist><true/>", false),
            ("", false)
        ])
    func firstPass(xml: String, taken: Bool) {
        let bytes = Array(xml.utf8)
        #expect(bytes.withUnsafeBytes { PlistScanner.accepts($0, limits: .default) } == taken)
    }

    @Test("names, values, comments, instructions and white space past libxml2's bounds are left to it")
    func sizeBounds() {
        let long = String(repeating: "a", count: 50_001)
        let huge = String(repeating: "a", count: (1 << 20) + 1)
        let spaces = String(repeating: " ", count: (1 << 20) + 1)
        for xml in [
            "<plist \(long)=\"1\"><true/></plist>", "<?p\(long)?><plist><true/></plist>",
            "<!DOCTYPE p\(long)><plist><true/></plist>", "<plist a=\"\(huge)\"><true/></plist>",
            "<plist><!--é\(huge)--><true/></plist>", "<plist><?pi \(huge)?><true/></plist>",
            "\(spaces)<plist><true/></plist>", "<plist><true/></plist>\(spaces)", "<plist\(spaces)><true/></plist>",
            "<?xml version=\"1.0\"\(spaces)?><plist><true/></plist>"
        ] {
            let bytes = Array(xml.utf8)
            #expect(!bytes.withUnsafeBytes { PlistScanner.accepts($0, limits: .default) }, "\(xml.prefix(40))")
            #expect(record(bytes, engine: .scannerFirst) == record(bytes, engine: .libxml2))
        }
    }

    @Test(
        "bytes that are not UTF-8 or not XML characters are left to libxml2",
        arguments: [
            [0xC3], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBE], [0xEF, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80],
            [0xE2, 0x82], [0x00]
        ] as [[UInt8]])
    func badBytes(_ inner: [UInt8]) {
        let bytes = Array("<plist><string>a".utf8) + inner + Array("b</string></plist>".utf8)
        #expect(!bytes.withUnsafeBytes { PlistScanner.accepts($0, limits: .default) })
        #expect(record(bytes, engine: .scannerFirst) == record(bytes, engine: .libxml2))
    }

    @Test("locations: columns in scalars after non-ASCII text and a byte order mark, lines across CRLF")
    func locations() {
        let xml = "\u{FEFF}<plist><array><string>é😀</string><true/>\r\n  <string>x</string></array></plist>"
        let recorder = Recorder(stream: { _, depth, _ in depth == 0 })
        PlistStreamReader.read(bytes: Array(xml.utf8), name: "t.plist", limits: .default, handler: recorder)
        // The mark is not a column; `<string>` after `<plist><array>` (14 scalars), `<true/>` after
        // `<plist><array><string>é😀</string>`: 7 + 7 + 8 + 2 + 9 = 33 scalars.
        #expect(recorder.values == ["string@1:15(é😀)", "true@1:34", "string@2:3(x)"])
        #expect(Recording(recorder) == record(Array(xml.utf8), engine: .libxml2))
    }

    @Test("a second byte order mark, which libxml2 skips too, is no column either")
    func secondByteOrderMark() {
        // The scanner leaves the file to libxml2, which takes both marks as marks: `<string>`
        // after `<plist version="1.0"><array>` (21 + 7 scalars) is at column 29, as with one mark.
        let body = #"<plist version="1.0"><array><string>x</string></array></plist>"#
        let twice = record(Array(("\u{FEFF}\u{FEFF}" + body).utf8), engine: .scannerFirst)
        #expect(twice.values == ["string@1:29(x)"])
        #expect(twice == record(Array(("\u{FEFF}" + body).utf8), engine: .libxml2))
    }
}

/// Everything a reading delivered, comparable.
private struct Recording: Equatable, CustomStringConvertible {
    var events: [String]
    var values: [String]
    var issues: [String]

    init(_ recorder: Recorder) {
        events = recorder.events
        values = recorder.values
        issues = recorder.issues.map { "\($0.kind) \($0.location): \($0.message)" }
    }

    var description: String { "events \(events)\nvalues \(values)\nissues \(issues)" }
}

private func record(_ bytes: [UInt8], engine: PlistStreamReader.Engine) -> Recording {
    // The root and its containers stream; deeper values arrive whole.
    let recorder = Recorder(stream: { _, depth, _ in depth <= 1 })
    bytes.withUnsafeBytes {
        _ = PlistStreamReader.read(
            bytes: $0, name: "test.plist", limits: .default, handler: recorder, halving: nil, engine: engine)
    }
    return Recording(recorder)
}

/// A ``Recorder`` whose file may be read in two halves: the array under the root splits.
private final class HalvingRecorder: PlistHalvingHandler {
    let recorder = Recorder(stream: { _, depth, _ in depth <= 1 })
    private var split = false

    func shouldStream(_ kind: PlistKind, depth: Int, key: PlistKey?) -> Bool {
        recorder.shouldStream(kind, depth: depth, key: key)
    }
    func didOpen(_ kind: PlistKind, at location: PlistReader.SourceLocation, depth: Int, key: PlistKey?) {
        recorder.didOpen(kind, at: location, depth: depth, key: key)
    }
    func didRead(_ value: PlistValue, depth: Int, key: PlistKey?) { recorder.didRead(value, depth: depth, key: key) }
    func didClose(_ kind: PlistKind, depth: Int) { recorder.didClose(kind, depth: depth) }
    func didFind(_ issue: PlistIssue) { recorder.didFind(issue) }

    func handlerForSecondHalf(of kind: PlistKind, depth: Int, key: PlistKey?) -> HalvingRecorder? {
        guard kind == .array, depth == 1, !split else { return nil }
        split = true
        return HalvingRecorder()
    }

    func absorb(_ second: HalvingRecorder) {
        recorder.events += second.recorder.events
        recorder.values += second.recorder.values
        recorder.issues += second.recorder.issues
    }
}

/// Random property lists in the spellings writers and people produce, with the mistakes they make:
/// declarations, DOCTYPEs, comments, entities, non-ASCII text, CRLF, attributes, and broken bytes.
private struct RandomPlist {
    var random: SplitMix64
    /// Containers nest down to this depth (the root dict is 0); lower in files of many items, whose
    /// cut must fall between two of them often enough.
    var deepest = 5
    /// How often mistakes are made, in tenths of their usual rate (a file of many items has one
    /// in almost every file otherwise, and is read again whole).
    var mistakes = 10

    /// A mistake at `percent` of the usual rate.
    mutating func mistake(_ percent: Int) -> Bool { Int.random(in: 0..<1000, using: &random) < percent * mistakes }

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
    mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &random)] }

    /// A file whose root dict holds an array of `items` values (a few by default).
    mutating func file(items: Int? = nil) -> [UInt8] {
        deepest = items == nil ? 5 : 3
        mistakes = items == nil ? 10 : (chance(70) ? 0 : 1)
        let newline = pick(["\n", "\n", "\r\n", "", "\n\n", mistake(20) ? "\r" : "\n"])
        let indent = pick(["\t", "  ", "", " \t"])
        var out = ""
        if chance(10) { out += "\u{FEFF}" }
        out += pick([
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<?xml version='1.0'?>", "",
            "<?xml version=\"1.0\" encoding=\"ISO-8859-1\" standalone=\"no\" ?>",
            mistake(30) ? "<?xml version=\"1.1\"?>" : "",
            mistake(20) ? " <?xml version=\"1.0\"?>" : ""
        ])
        out += newline
        out += pick([
            "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">",
            "<!DOCTYPE plist SYSTEM \"https://www.apple.com/DTDs/PropertyList-1.0.dtd\">", "", "<!DOCTYPE plist>",
            mistake(20) ? "<!DOCTYPE plist PUBLIC \"-//Other//EN\" \"x.dtd\">" : "",
            mistake(20) ? "<!DOCTYPE plist [<!ENTITY e \"x\">]>" : ""
        ])
        out += newline
        if chance(20) {
            out += pick(["<!-- written by hand -->", "<?editor v2?>", mistake(20) ? "<?xml x?>" : "<?a b?>"]) + newline
        }
        out += pick([
            "<plist version=\"1.0\">", "<plist>", "<plist version='1.0' >",
            mistake(10) ? "<plist xmlns=\"u\">" : "<plist>"
        ])
        out += newline + "<dict>" + newline
        out += indent + "<key>items</key>" + newline + indent + "<array>" + newline
        for _ in 0..<(items ?? Int.random(in: 0...4, using: &random)) {
            // Many items are dicts, as promotions are: a file is cut between two.
            out +=
                items != nil && chance(90)
                ? dict(depth: 2, indent: indent, newline: newline) : value(depth: 2, indent: indent, newline: newline)
        }
        out += indent + "</array>" + newline
        if chance(50) { out += indent + "<key>name</key>" + " " + string() + newline }
        if mistake(5) { out += indent + "<key>dangling</key>" + newline }
        if mistake(5) { out += indent + "stray text" + newline }
        out += "</dict>" + newline + "</plist>" + newline
        if mistake(10) { out += pick(["<!-- end -->", "trailing", "<plist/>", "  "]) + newline }
        var bytes = Array(out.utf8)
        if mistake(15) { mutate(&bytes) }
        return bytes
    }

    mutating func value(depth: Int, indent: String, newline: String) -> String {
        let pad = String(repeating: indent, count: depth)
        if depth < deepest, chance(30) {
            if chance(50) { return dict(depth: depth, indent: indent, newline: newline) }
            var out = pad + "<array>" + newline
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                out += value(depth: depth + 1, indent: indent, newline: newline)
            }
            if mistake(5) { out += pad + "<key>misplaced</key>" + newline }
            return out + pad + pick(["</array>", "</array>", mistake(10) ? "</dict>" : "</array>"]) + newline
        }
        let comment =
            chance(5)
            ? pick(["<!-- c -->", "<!---->", "<?pi data?>", mistake(30) ? "<!-- a -- b -->" : "<!-- d -->"]) : ""
        return pad + comment
            + pick([
                string(), "<integer>\(Int.random(in: -5...100_000, using: &random))</integer>", "<real>19.99</real>",
                "<true/>", "<false/>", "<true> </true>", "<date>2026-06-01T00:00:00Z</date>", "<data>AAEC</data>",
                "<string/>", "<dict/>", "<array/>", mistake(10) ? "<unknown>x</unknown>" : "<true/>",
                mistake(10) ? "<string>a<string>b</string></string>" : "<false/>",
                chance(10) ? "<string>a<![CDATA[<x> & ]]>\(text())</string>" : "<real>1</real>",
                mistake(5) ? "<array><![CDATA[x]]></array>" : "<data>AA==</data>"
            ]) + newline
    }

    mutating func dict(depth: Int, indent: String, newline: String) -> String {
        let pad = String(repeating: indent, count: depth)
        var out = pad + pick(["<dict>", "<dict>", "<dict >", "<dict a=\"1\">"]) + newline
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            out += pad + indent + pick(["<key>", "<key >"]) + text() + pick(["</key>", "</key >"]) + newline
            out += value(depth: depth + 1, indent: indent, newline: newline)
        }
        if mistake(5) { out += pad + indent + "<key>lost</key>" + newline }
        return out + pad + "</dict>" + newline
    }

    mutating func string() -> String { pick(["<string>", "<string >"]) + text() + "</string>" }

    mutating func text() -> String {
        var out = ""
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            out += pick([
                "abc", "promo-12", "B &amp; C", "&lt;x&gt;", "&quot;q&apos;", "&#38;", "&#x1F600;", "é", "日本", "😀",
                "  ", "\t", "a]b", "x\ny", "x\r\ny", "\u{7F}", "tab\there", mistake(10) ? "a]]>b" : "ok",
                mistake(10) ? "&foo;" : "ok", mistake(10) ? "&#0;" : "ok", mistake(10) ? "&#xD800;" : "ok",
                mistake(10) ? "\u{1}" : "ok", chance(5) ? "<!-- in -->" : "", chance(5) ? "<?in x?>" : ""
            ])
        }
        return out
    }

    /// A few random bytes replaced, inserted or removed.
    mutating func mutate(_ bytes: inout [UInt8]) {
        guard !bytes.isEmpty else { return }
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let at = Int.random(in: 0..<bytes.count, using: &random)
            let byte = pick([
                UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"), UInt8(ascii: "/"), 0x0D, 0xC3, 0x00,
                UInt8(ascii: "a")
            ])
            switch Int.random(in: 0..<3, using: &random) {
            case 0: bytes[at] = byte
            case 1: bytes.insert(byte, at: at)
            default: bytes.remove(at: at)
            }
            if bytes.isEmpty { return }
        }
    }
}
