/// A reader of the plain XML that property-list writers produce, beside libxml2 and faster than it
/// (docs/performance.md, "The promotions file").
///
/// It takes a file only when the whole file is within what it knows, checked in a first pass that
/// delivers nothing: an optional byte order mark and XML declaration (version 1.0), comments, a
/// DOCTYPE naming Apple's plist DTD, the plist element names with plain attributes, and text with
/// the five predefined entities, character references, CDATA in values, CRLF line ends and valid
/// UTF-8, processing instructions (skipped, as the reader skips them) — and nothing libxml2 would
/// call malformed. Anything else (unknown names, instruction targets starting with `xml`,
/// namespaces, DTD declarations, a lone CR, text or CDATA directly inside a container, any XML
/// error) leaves the file to libxml2, which reads it exactly as before: the scanner never words an
/// XML error.
///
/// What it delivers to ``ReaderState`` is what libxml2's SAX2 callbacks deliver for the same bytes —
/// the same start and end tags, the same text (line ends normalized to `\n`, entities replaced), the
/// same locations (line of the `<`, column in Unicode scalars from the line's start) — pinned by
/// `PlistScannerTests` on generated files and by the fuzzer.
enum PlistScanner {
    /// Whether the scanner can read all of `bytes` (a whole file) as libxml2 would. Nothing is
    /// delivered; `passed` is told every few hundred kilobytes how far the check got.
    static func accepts(_ bytes: UnsafeRawBufferPointer, limits: PlistLimits, passed: (Int) -> Void = { _ in })
        -> Bool
    {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count > 0,
            bytes.count <= limits.maxFileSize
        else { return false }
        return withoutActuallyEscaping(passed) { passed in
            var cursor = Cursor(base: base, end: base + bytes.count, start: 0, line: 1)
            defer { cursor.free() }
            var events = Checking(passed: passed)
            return cursor.scanDocument(&events) == .read
        }
    }

    /// The location of the byte at `offset` of `bytes`: its line, and its column in Unicode scalars
    /// (after a byte order mark on the first line). For messages about text, which only a file the
    /// scanner did not take can hold; slow (it counts from the start), so never on the common path.
    static func location(of offset: Int, in bytes: UnsafeRawBufferPointer) -> SourceLocation {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            return SourceLocation(line: 1, column: 1)
        }
        let offset = min(max(offset, 0), bytes.count)
        let before = UnsafeRawBufferPointer(rebasing: bytes[..<offset])
        let line = countLineBreaks(before) + 1
        var lineStart = offset
        while lineStart > 0, base[lineStart - 1] != 0x0A { lineStart -= 1 }
        if lineStart == 0, hasByteOrderMark(bytes) { lineStart = min(3, offset) }
        return SourceLocation(line: line, column: scalars(from: base + lineStart, to: base + offset) + 1)
    }

    /// Whether `bytes` start with UTF-8's byte order mark.
    static func hasByteOrderMark(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    }

    /// How a scan ended.
    enum Outcome: Equatable {
        /// To the end of the file, every byte within what the scanner knows.
        case read
        /// At something it leaves to libxml2.
        case unsupported
        /// The receiver of the events asked to stop.
        case stopped
    }

    /// The element names the scanner knows: `plist` and the plist kinds.
    enum Name {
        static let plist: UInt8 = 0xFF

        /// The kind named by the `count` bytes at `p`, `plist`, or nil. `count` is at most 8.
        @inline(__always)
        static func of(_ p: UnsafePointer<UInt8>, count: Int) -> UInt8? {
            guard count >= 3, count <= 7 else { return nil }
            // The name's bytes as a little-endian word, compared with each name's.
            var word: UInt64 = 0
            for index in 0..<count { word |= UInt64(p[index]) << (8 * UInt64(index)) }
            switch count {
            case 3: return word == 0x79_656B ? PlistKind.key.rawValue : nil
            case 4:
                switch word {
                case 0x7463_6964: return PlistKind.dict.rawValue
                case 0x6C61_6572: return PlistKind.real.rawValue
                case 0x6575_7274: return PlistKind.true.rawValue
                case 0x6574_6164: return PlistKind.date.rawValue
                case 0x6174_6164: return PlistKind.data.rawValue
                default: return nil
                }
            case 5:
                switch word {
                case 0x79_6172_7261: return PlistKind.array.rawValue
                case 0x65_736C_6166: return PlistKind.false.rawValue
                case 0x74_7369_6C70: return plist
                default: return nil
                }
            case 6: return word == 0x676E_6972_7473 ? PlistKind.string.rawValue : nil
            default: return word == 0x72_6567_6574_6E69 ? PlistKind.integer.rawValue : nil
            }
        }

        /// The common start tags after their `<` (`key>`, `true/>`, …), from the 8 bytes there as a
        /// little-endian word: the name, the tag's length after the `<`, and whether it is empty.
        @inline(__always)
        static func quickTag(_ word: UInt64) -> (name: UInt8, length: Int, empty: Bool)? {
            if word & 0xFFFF_FFFF == 0x3E79_656B { return (PlistKind.key.rawValue, 4, false) }
            let seven = word & 0xFF_FFFF_FFFF_FFFF
            if seven == 0x3E_676E_6972_7473 { return (PlistKind.string.rawValue, 7, false) }
            if word == 0x3E72_6567_6574_6E69 { return (PlistKind.integer.rawValue, 8, false) }
            switch word & 0xFF_FFFF_FFFF {
            case 0x3E_6C61_6572: return (PlistKind.real.rawValue, 5, false)
            case 0x3E_7463_6964: return (PlistKind.dict.rawValue, 5, false)
            case 0x3E_6574_6164: return (PlistKind.date.rawValue, 5, false)
            case 0x3E_6174_6164: return (PlistKind.data.rawValue, 5, false)
            default: break
            }
            switch word & 0xFFFF_FFFF_FFFF {
            case 0x3E2F_6575_7274: return (PlistKind.true.rawValue, 6, true)
            case 0x3E79_6172_7261: return (PlistKind.array.rawValue, 6, false)
            case 0x3E2F_7463_6964: return (PlistKind.dict.rawValue, 6, true)
            default: break
            }
            switch seven {
            case 0x3E_2F65_736C_6166: return (PlistKind.false.rawValue, 7, true)
            case 0x3E_2F79_6172_7261: return (PlistKind.array.rawValue, 7, true)
            default: break
            }
            if word == 0x3E2F_676E_6972_7473 { return (PlistKind.string.rawValue, 8, true) }
            return nil
        }

        /// The end tag of an element of this name, `</name>`: its first 8 bytes (fewer for a short
        /// name) as a little-endian word, and its length.
        @inline(__always)
        static func endTag(_ name: UInt8) -> (word: UInt64, length: Int) {
            switch name {
            case PlistKind.dict.rawValue: (0x3E_7463_6964_2F3C, 7)
            case PlistKind.array.rawValue: (0x3E79_6172_7261_2F3C, 8)
            case PlistKind.key.rawValue: (0x3E79_656B_2F3C, 6)
            case PlistKind.string.rawValue: (0x676E_6972_7473_2F3C, 9)
            case PlistKind.integer.rawValue: (0x6567_6574_6E69_2F3C, 10)
            case PlistKind.real.rawValue: (0x3E_6C61_6572_2F3C, 7)
            case PlistKind.true.rawValue: (0x3E_6575_7274_2F3C, 7)
            case PlistKind.false.rawValue: (0x3E65_736C_6166_2F3C, 8)
            case PlistKind.date.rawValue: (0x3E_6574_6164_2F3C, 7)
            case PlistKind.data.rawValue: (0x3E_6174_6164_2F3C, 7)
            default: (0x3E74_7369_6C70_2F3C, 8)
            }
        }

        /// The position of a name in ``cStrings``.
        @inline(__always)
        static func index(_ name: UInt8) -> Int { name == plist ? 10 : Int(name) }

        /// Whether elements of this name hold elements (their text must be blank).
        @inline(__always)
        static func holdsElements(_ name: UInt8) -> Bool {
            name == plist || name == PlistKind.dict.rawValue || name == PlistKind.array.rawValue
        }

        /// The names as libxml2 hands them over, NUL-terminated, in the order of `PlistKind`'s raw
        /// values, then `plist` (see ``index(_:)``). Allocated once, never freed.
        nonisolated(unsafe) static let cStrings: [UnsafePointer<UInt8>] =
            ["dict", "array", "key", "string", "integer", "real", "true", "false", "date", "data", "plist"].map {
                let bytes = Array($0.utf8) + [0]
                let p = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
                p.initialize(from: bytes, count: bytes.count)
                return UnsafePointer(p)
            }
    }
}

/// What a scan delivers, to ``ReaderState`` or to nothing (the first pass).
protocol PlistScanEvents {
    /// Whether text and locations are wanted at all (not in the first pass).
    static var delivers: Bool { get }
    /// A start tag; `offset` is that of its `>` (or of the `/` of `/>`). False: stop.
    mutating func start(_ name: UInt8, at location: SourceLocation, offset: Int) -> Bool
    /// An end tag, or the end of an empty-element tag; `offset` is just past its `>`.
    mutating func end(offset: Int) -> Bool
    /// Text of a value element, in pieces.
    mutating func text(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Bool
    /// Every few hundred kilobytes: the scan is past `offset`. False: stop.
    mutating func passed(_ offset: Int) -> Bool
}

/// The first pass: delivers nothing.
private struct Checking: PlistScanEvents {
    let passed: (Int) -> Void
    static var delivers: Bool { false }
    func start(_ name: UInt8, at location: SourceLocation, offset: Int) -> Bool { true }
    func end(offset: Int) -> Bool { true }
    func text(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Bool { true }
    func passed(_ offset: Int) -> Bool {
        passed(offset)
        return true
    }
}

/// The scanner's position in the bytes, and the open elements.
struct PlistScanCursor {
    fileprivate var cursor: Cursor

    /// A scan of `base..<end` from `start`, which begins line `line`, inside the elements `open`
    /// (names as ``PlistScanner/Name``), for the second half of a file the first pass took.
    init(base: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, start: Int, line: Int, open: [UInt8]) {
        cursor = Cursor(base: base, end: end, start: start, line: line)
        for name in open.prefix(Cursor.maxDepth) { cursor.push(name) }
        cursor.sawRoot = !open.isEmpty
    }

    /// A whole file.
    init(base: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>) {
        cursor = Cursor(base: base, end: end, start: 0, line: 1)
    }

    /// Scans to the end, or until `events` says stop. A whole file starts with its prolog; a second
    /// half with the children of its innermost open element. Once: the cursor is done with after.
    mutating func scan<Events: PlistScanEvents>(_ events: inout Events, whole: Bool) -> PlistScanner.Outcome {
        defer { cursor.free() }
        return whole ? cursor.scanDocument(&events) : cursor.scanContent(&events)
    }
}

private struct Cursor {
    let base: UnsafePointer<UInt8>
    let end: UnsafePointer<UInt8>
    var p: UnsafePointer<UInt8>
    var line: Int
    /// Where the current line starts, and whether it held only ASCII up to `p` (then a column is a
    /// difference of pointers); else scalars are counted on from `counted`, at column `countedColumn` (both from
    /// before this line when `counted` is before `lineStart`: then counting starts at the line).
    var lineStart: UnsafePointer<UInt8>
    var lineIsASCII = true
    var counted: UnsafePointer<UInt8>
    var countedColumn = 0
    /// Per byte, 1 when text needs no look at it (see ``plainTextBytes``).
    let plainText = plainTextBytes
    /// The open elements' names, innermost last (`depth` of them; room for ``maxDepth``).
    let stack: UnsafeMutablePointer<UInt8>
    var depth = 0
    var sawRoot = false
    var nextReport: UnsafePointer<UInt8>

    static let reportEvery = 1 << 18
    /// Deeper than this is left to libxml2 (which stops at 256; the reader's own limit is lower).
    static let maxDepth = 200
    /// A longer text between two tags is left to libxml2 (which truncates text over 10,000,000 bytes).
    static let maxRun = 8 << 20
    /// Longer names, and longer attribute values, comments, instructions, tags and runs of white
    /// space, are left to libxml2, which refuses names over 50,000 bytes and, read in one go, those
    /// over 10,000,000 bytes ("Huge input lookup").
    static let maxName = 1_000
    static let maxConstruct = 1 << 20

    init(base: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>, start: Int, line: Int) {
        self.base = base
        self.end = end
        p = base + start
        self.line = line
        lineStart = p
        counted = p
        nextReport = p + Self.reportEvery
        stack = .allocate(capacity: Self.maxDepth)
    }

    func free() {
        stack.deallocate()
    }

    @inline(__always)
    mutating func push(_ name: UInt8) {
        stack[depth] = name
        depth += 1
    }

    /// The innermost open element's name, if any.
    @inline(__always)
    var top: UInt8? { depth > 0 ? stack[depth - 1] : nil }

    // MARK: Document

    mutating func scanDocument<Events: PlistScanEvents>(_ events: inout Events) -> PlistScanner.Outcome {
        if PlistScanner.hasByteOrderMark(UnsafeRawBufferPointer(start: p, count: end - p)) {
            p += 3
            lineStart = p
            counted = p
        }
        if end - p >= 6, matches("<?xml"), isSpace(p[5]) {
            guard declaration() else { return .unsupported }
        }
        var sawDoctype = false
        // The prolog: white space, comments, one DOCTYPE.
        while true {
            guard blank() else { return .unsupported }
            guard p < end else { return .unsupported }  // no element
            if matches("<!--") {
                guard comment() else { return .unsupported }
            } else if matches("<?") {
                guard instruction() else { return .unsupported }
            } else if matches("<!DOCTYPE") {
                guard !sawDoctype, doctype() else { return .unsupported }
                sawDoctype = true
            } else {
                break
            }
        }
        let outcome = scanContent(&events)
        guard outcome == .read else { return outcome }
        return sawRoot && depth == 0 ? .read : .unsupported
    }

    /// From inside the open elements (none: the root element is next) to the end of the file.
    mutating func scanContent<Events: PlistScanEvents>(_ events: inout Events) -> PlistScanner.Outcome {
        while p < end {
            if p >= nextReport {
                guard events.passed(p - base) else { return .stopped }
                nextReport = p + Self.reportEvery
            }
            if p[0] != UInt8(ascii: "<") {
                // White space between elements (the common case) here; a value's text in `text`.
                if let top, !PlistScanner.Name.holdsElements(top) {
                    let outcome = text(&events)
                    guard outcome == .read else { return outcome }
                } else {
                    guard blank(), p == end || p[0] == UInt8(ascii: "<") else { return .unsupported }
                }
                continue
            }
            guard end - p >= 2 else { return .unsupported }
            switch p[1] {
            case UInt8(ascii: "/"):
                let outcome = endTag(&events)
                guard outcome == .read else { return outcome }
            case UInt8(ascii: "!"):
                if matches("<![CDATA[") {
                    let outcome = cdata(&events)
                    guard outcome == .read else { return outcome }
                } else {
                    guard matches("<!--"), comment() else { return .unsupported }
                }
            case UInt8(ascii: "?"):
                guard instruction() else { return .unsupported }
            default:
                let outcome = startTag(&events)
                guard outcome == .read else { return outcome }
            }
        }
        return depth == 0 ? .read : .unsupported
    }

    // MARK: Tags

    mutating func startTag<Events: PlistScanEvents>(_ events: inout Events) -> PlistScanner.Outcome {
        let open = p
        guard !(sawRoot && depth == 0), depth < Self.maxDepth else { return .unsupported }
        if let top, !PlistScanner.Name.holdsElements(top) {
            // An element in a value's text: the reader reports it; left to libxml2 rather than
            // working out which text around it belongs where.
            return .unsupported
        }
        p += 1
        // Where the `<` is, before attributes on further lines move the line on.
        let location = Events.delivers ? location(of: open) : SourceLocation(line: 0, column: 0)
        let name: UInt8
        let empty: Bool
        if end - p >= 8, let quick = PlistScanner.Name.quickTag(UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)) {
            // `<key>`, `<true/>` and the like: the name and the tag's end in one comparison.
            (name, empty) = (quick.name, quick.empty)
            p += quick.length - (empty ? 2 : 1)
        } else {
            let nameStart = p
            while p < end, isNameLetter(p[0]) { p += 1 }
            guard p < end, let named = PlistScanner.Name.of(nameStart, count: p - nameStart) else {
                return .unsupported
            }
            name = named
            if p[0] != UInt8(ascii: ">") {
                guard attributes() else { return .unsupported }
            }
            if p[0] == UInt8(ascii: ">") {
                empty = false
            } else if p[0] == UInt8(ascii: "/"), end - p >= 2, p[1] == UInt8(ascii: ">") {
                empty = true
            } else {
                return .unsupported
            }
        }
        sawRoot = true
        if Events.delivers {
            guard events.start(name, at: location, offset: p - base) else { return .stopped }
        }
        p += empty ? 2 : 1
        if empty {
            if Events.delivers, !events.end(offset: p - base) { return .stopped }
        } else {
            push(name)
        }
        return .read
    }

    mutating func endTag<Events: PlistScanEvents>(_ events: inout Events) -> PlistScanner.Outcome {
        guard let top else { return .unsupported }
        // The common case: `</name>` for the innermost element's name, compared a word at a time.
        let (word, length) = PlistScanner.Name.endTag(top)
        if end - p >= max(length, 8), closes(word, length) {
            p += length
        } else {
            p += 2
            let nameStart = p
            while p < end, isNameLetter(p[0]) { p += 1 }
            guard p < end, PlistScanner.Name.of(nameStart, count: p - nameStart) == top else { return .unsupported }
            guard blank(), p < end, p[0] == UInt8(ascii: ">") else { return .unsupported }
            p += 1
        }
        depth -= 1
        if Events.delivers, !events.end(offset: p - base) { return .stopped }
        return .read
    }

    /// Attributes of a start tag, up to its `>` or `/>`: `name="value"` or `name='value'`, names of
    /// ASCII letters, digits, `_`, `.`, `-` (no namespaces, nothing starting with `xml`), values
    /// without `<` or `&`, no name twice, at most eight.
    mutating func attributes() -> Bool {
        var names: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        let tagStart = p
        while true {
            guard p - tagStart <= Self.maxConstruct else { return false }
            let before = p
            guard blank(), p < end else { return false }
            if p[0] == UInt8(ascii: ">") || p[0] == UInt8(ascii: "/") { return true }
            // Attributes are separated by white space.
            guard p > before, count < 8 else { return false }
            let nameStart = p
            guard isNameLetter(p[0]) || p[0] == UInt8(ascii: "_") else { return false }
            while p < end, isNameCharacter(p[0]) { p += 1 }
            let length = p - nameStart
            guard length <= Self.maxName, !startsWithXML(nameStart, length) else { return false }
            // Each name as offset << 16 | length, to compare with the ones before.
            let key = (nameStart - base) << 16 | length
            var duplicate = false
            withUnsafeBytes(of: names) { seen in
                for index in 0..<count {
                    let other = seen.load(fromByteOffset: index * 8, as: Int.self)
                    if other & 0xFFFF == length, equalBytes(base + (other >> 16), nameStart, length) {
                        duplicate = true
                    }
                }
            }
            guard !duplicate else { return false }
            withUnsafeMutableBytes(of: &names) { $0.storeBytes(of: key, toByteOffset: count * 8, as: Int.self) }
            count += 1
            guard blank(), p < end, p[0] == UInt8(ascii: "=") else { return false }
            p += 1
            guard blank(), p < end, p[0] == 0x22 || p[0] == 0x27 else { return false }
            let quote = p[0]
            p += 1
            let valueStart = p
            while p < end, p[0] != quote {
                guard p - valueStart <= Self.maxConstruct else { return false }
                let byte = p[0]
                if byte == UInt8(ascii: "<") || byte == UInt8(ascii: "&") { return false }
                guard character() else { return false }
            }
            guard p < end else { return false }
            p += 1
            guard p < end else { return false }
        }
    }

    /// Whether the bytes at `p` are `word` (the first 8 bytes of an end tag of `length` bytes), then
    /// for the longer tags (`</string>`, `</integer>`) their rest; at least 8 bytes are there.
    @inline(__always)
    func closes(_ word: UInt64, _ length: Int) -> Bool {
        let bytes = UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)
        guard length < 8 else {
            guard bytes == word else { return false }
            switch length {
            case 8: return true
            case 9: return p[8] == UInt8(ascii: ">")
            default: return p[8] == UInt8(ascii: "r") && p[9] == UInt8(ascii: ">")
            }
        }
        return bytes & (1 << (8 * UInt64(length)) - 1) == word
    }

    // MARK: Text

    /// A value's text up to the next `<`, delivered in pieces (the innermost element is a value).
    mutating func text<Events: PlistScanEvents>(_ events: inout Events) -> PlistScanner.Outcome {
        let runStart = p
        var piece = p
        while p < end {
            let byte = p[0]
            // Printable ASCII but `<`, `&`, `]`, and tab: nothing to look at.
            if plainText[Int(byte)] != 0 {
                p += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "<"):
                guard p - runStart <= Self.maxRun else { return .unsupported }
                if Events.delivers, p > piece, !events.text(piece, p - piece) { return .stopped }
                return .read
            case 0x0A:
                p += 1
                newLine()
            case 0x0D:
                // CRLF is delivered as LF; a lone CR is left to libxml2.
                guard end - p >= 2, p[1] == 0x0A else { return .unsupported }
                if Events.delivers, p > piece, !events.text(piece, p - piece) { return .stopped }
                p += 1
                piece = p
            case UInt8(ascii: "]"):
                guard !(end - p >= 3 && p[1] == UInt8(ascii: "]") && p[2] == UInt8(ascii: ">")) else {
                    return .unsupported
                }
                p += 1
            case UInt8(ascii: "&"):
                if Events.delivers, p > piece, !events.text(piece, p - piece) { return .stopped }
                var scalar: UInt32 = 0
                guard let length = reference(&scalar) else { return .unsupported }
                if Events.delivers {
                    var utf8: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
                    let count = withUnsafeMutableBytes(of: &utf8) { encode(scalar, into: $0) }
                    let ok = withUnsafeBytes(of: utf8) {
                        events.text($0.baseAddress!.assumingMemoryBound(to: UInt8.self), count)
                    }
                    guard ok else { return .stopped }
                }
                p += length
                piece = p
            default:
                guard character() else { return .unsupported }
            }
        }
        return .unsupported  // the file ends inside an element
    }

    /// `<![CDATA[…]]>` in a value's text (libxml2, told to, delivers it as text): its characters as
    /// they are, but line ends. Elsewhere it is left to libxml2.
    mutating func cdata<Events: PlistScanEvents>(_ events: inout Events) -> PlistScanner.Outcome {
        guard let top, !PlistScanner.Name.holdsElements(top) else { return .unsupported }
        p += 9
        let start = p
        var piece = p
        while p < end {
            switch p[0] {
            case UInt8(ascii: "]") where end - p >= 3 && p[1] == UInt8(ascii: "]") && p[2] == UInt8(ascii: ">"):
                guard p - start <= Self.maxRun else { return .unsupported }
                if Events.delivers, p > piece, !events.text(piece, p - piece) { return .stopped }
                p += 3
                return .read
            case 0x0D:
                guard end - p >= 2, p[1] == 0x0A else { return .unsupported }
                if Events.delivers, p > piece, !events.text(piece, p - piece) { return .stopped }
                p += 1
                piece = p
            case UInt8(ascii: "<"), UInt8(ascii: "&"), UInt8(ascii: "]"):
                p += 1
            default:
                guard character() else { return .unsupported }
            }
        }
        return .unsupported
    }

    /// The five predefined entities, and the character each stands for.
    static let predefined: [(name: StaticString, scalar: UInt32)] = [
        ("&amp;", 0x26), ("&lt;", 0x3C), ("&gt;", 0x3E), ("&quot;", 0x22), ("&apos;", 0x27)
    ]

    /// An entity or character reference at `p` (`&`): its length, with the scalar it stands for.
    func reference(_ scalar: inout UInt32) -> Int? {
        let rest = end - p
        for entity in Self.predefined where matches(entity.name) {
            scalar = entity.scalar
            return entity.name.utf8CodeUnitCount
        }
        guard rest >= 4, p[1] == UInt8(ascii: "#") else { return nil }
        var q = p + 2
        let hex = q[0] == UInt8(ascii: "x")
        if hex { q += 1 }
        var value: UInt32 = 0
        var digits = 0
        while q < end {
            let byte = q[0]
            let digit: UInt32
            if isDigit(byte) {
                digit = UInt32(byte - 0x30)
            } else if hex, (byte | 0x20) >= 0x61, (byte | 0x20) <= 0x66 {
                digit = UInt32((byte | 0x20) - 0x61 + 10)
            } else {
                break
            }
            // Seven digits at most (0xFFFFFFF, 9,999,999: no overflow); more are left to libxml2.
            guard digits < 7 else { return nil }
            value = value * (hex ? 16 : 10) + digit
            digits += 1
            q += 1
        }
        guard digits > 0, digits <= 7, q < end, q[0] == UInt8(ascii: ";"), isXMLCharacter(value) else { return nil }
        scalar = value
        return q + 1 - p
    }

    /// One character of text, a comment or an attribute value at `p` (not `<`, `&`): steps over
    /// it, keeping lines; false for what libxml2 refuses (control bytes, bad UTF-8, U+FFFE, U+FFFF)
    /// or a lone CR.
    mutating func character() -> Bool {
        let byte = p[0]
        if byte < 0x80 {
            switch byte {
            case 0x0A:
                p += 1
                newLine()
            case 0x0D:
                guard end - p >= 2, p[1] == 0x0A else { return false }
                p += 1
            case 0x09, 0x20..<0x80:
                p += 1
            default:
                return false
            }
            return true
        }
        guard let length = utf8Length() else { return false }
        lineIsASCII = false
        p += length
        return true
    }

    /// The length of the UTF-8 sequence at `p` (first byte ≥ 0x80), if it is valid and an XML
    /// character.
    func utf8Length() -> Int? {
        let b0 = p[0]
        let rest = end - p
        @inline(__always) func continuation(_ b: UInt8) -> Bool { b & 0xC0 == 0x80 }
        switch b0 {
        case 0xC2...0xDF:
            guard rest >= 2, continuation(p[1]) else { return nil }
            return 2
        case 0xE0...0xEF:
            guard rest >= 3, continuation(p[1]), continuation(p[2]) else { return nil }
            if b0 == 0xE0, p[1] < 0xA0 { return nil }  // overlong
            if b0 == 0xED, p[1] >= 0xA0 { return nil }  // surrogates
            if b0 == 0xEF, p[1] == 0xBF, p[2] >= 0xBE { return nil }  // U+FFFE, U+FFFF
            return 3
        case 0xF0...0xF4:
            guard rest >= 4, continuation(p[1]), continuation(p[2]), continuation(p[3]) else { return nil }
            if b0 == 0xF0, p[1] < 0x90 { return nil }  // overlong
            if b0 == 0xF4, p[1] >= 0x90 { return nil }  // above U+10FFFF
            return 4
        default:
            return nil
        }
    }

    // MARK: Prolog and misc

    /// `<?xml version="1.0" encoding="…" standalone="…"?>` at `p` (encoding and standalone
    /// optional, in that order).
    mutating func declaration() -> Bool {
        p += 5
        guard pseudoAttribute("version"), let version = quoted(), version.elementsEqual("1.0".utf8)
        else { return false }
        if pseudoAttribute("encoding") {
            guard let encoding = quoted(), let first = encoding.first, isNameLetter(first),
                encoding.allSatisfy({
                    isNameLetter($0) || isDigit($0) || $0 == 0x2E || $0 == 0x5F || $0 == 0x2D
                })
            else { return false }
        }
        if pseudoAttribute("standalone") {
            guard let value = quoted(),
                value.elementsEqual("yes".utf8) || value.elementsEqual("no".utf8)
            else { return false }
        }
        guard blank(), matches("?>") else { return false }
        p += 2
        return true
    }

    /// White space, then `name`, white space, `=`, white space: true when all there (and `p` past
    /// it); else `p` is back where it was.
    mutating func pseudoAttribute(_ name: StaticString) -> Bool {
        let saved = (p, line, lineStart, lineIsASCII, counted, countedColumn)
        let before = p
        guard blank(), p > before, matches(name) else {
            (p, line, lineStart, lineIsASCII, counted, countedColumn) = saved
            return false
        }
        p += name.utf8CodeUnitCount
        guard blank(), p < end, p[0] == UInt8(ascii: "=") else {
            (p, line, lineStart, lineIsASCII, counted, countedColumn) = saved
            return false
        }
        p += 1
        guard blank() else { return false }
        return true
    }

    /// A quoted ASCII literal at `p`, without line breaks: its bytes.
    mutating func quoted() -> UnsafeBufferPointer<UInt8>? {
        guard p < end, p[0] == 0x22 || p[0] == 0x27 else { return nil }
        let quote = p[0]
        let start = p + 1
        var q = start
        while q < end, q[0] != quote {
            guard q[0] >= 0x20, q[0] < 0x80, q - start <= Self.maxConstruct else { return nil }
            q += 1
        }
        guard q < end else { return nil }
        p = q + 1
        return UnsafeBufferPointer(start: start, count: q - start)
    }

    /// `<!DOCTYPE name>` or with `SYSTEM "…"` or `PUBLIC "…" "…"` naming Apple's plist DTD, without
    /// an internal subset.
    mutating func doctype() -> Bool {
        p += 9
        let before = p
        guard blank(), p > before, p < end, isNameLetter(p[0]) else { return false }
        let nameStart = p
        while p < end, isNameLetter(p[0]) { p += 1 }
        guard p - nameStart <= Self.maxName else { return false }
        let afterName = p
        guard blank(), p < end else { return false }
        if p[0] == UInt8(ascii: ">") {
            p += 1
            return true
        }
        guard p > afterName else { return false }
        if matches("PUBLIC") {
            p += 6
            let beforeID = p
            guard blank(), p > beforeID, let publicID = quoted(),
                applePublicIDs.contains(where: { $0.utf8.elementsEqual(publicID) })
            else { return false }
        } else if matches("SYSTEM") {
            p += 6
        } else {
            return false
        }
        let beforeSystem = p
        guard blank(), p > beforeSystem, let systemID = quoted(),
            appleSystemIDs.contains(where: { $0.utf8.elementsEqual(systemID) })
        else { return false }
        guard blank(), p < end, p[0] == UInt8(ascii: ">") else { return false }
        p += 1
        return true
    }

    /// `<!-- … -->`: no `--` inside, characters as in text.
    mutating func comment() -> Bool {
        p += 4
        return skipCharacters(until: "-->", doubleDashEnds: true)
    }

    /// A processing instruction, `<?target …?>`, which the reader ignores as libxml2 does: a target
    /// of ASCII letters, digits, `_`, `.`, `-` not starting with `xml` in any case (the declaration,
    /// or reserved), then `?>` or white space and characters up to `?>`.
    mutating func instruction() -> Bool {
        p += 2
        let targetStart = p
        guard p < end, isNameLetter(p[0]) || p[0] == 0x5F else { return false }
        while p < end, isNameCharacter(p[0]) { p += 1 }
        guard p - targetStart <= Self.maxName, !startsWithXML(targetStart, p - targetStart) else { return false }
        if matches("?>") {
            p += 2
            return true
        }
        let before = p
        guard blank(), p > before else { return false }
        return skipCharacters(until: "?>", doubleDashEnds: false)
    }

    /// Characters up to and past `close`, at most ``maxConstruct`` bytes: `<` and `&` as they are,
    /// the others as in text. `doubleDashEnds`: a `--` must be the start of `close` (in a comment).
    mutating func skipCharacters(until close: StaticString, doubleDashEnds: Bool) -> Bool {
        let start = p
        while p < end {
            guard p - start <= Self.maxConstruct else { return false }
            if doubleDashEnds, p[0] == UInt8(ascii: "-"), end - p >= 2, p[1] == UInt8(ascii: "-") {
                guard matches(close) else { return false }
            }
            if matches(close) {
                p += close.utf8CodeUnitCount
                return true
            }
            if p[0] == UInt8(ascii: "<") || p[0] == UInt8(ascii: "&") {
                p += 1
                continue
            }
            guard character() else { return false }
        }
        return false
    }

    /// Steps over white space (space, tab, LF, CRLF); false at a lone CR, or past ``maxConstruct``
    /// bytes of it.
    @inline(__always)
    mutating func blank() -> Bool {
        let start = p
        while p < end {
            let byte = p[0]
            if byte == 0x20 || byte == 0x09 {
                p += 1
            } else if byte == 0x0A {
                p += 1
                newLine()
            } else if byte == 0x0D, end - p >= 2, p[1] == 0x0A {
                p += 1
            } else if byte == 0x0D {
                return false
            } else {
                break
            }
        }
        return p - start <= Self.maxConstruct
    }

    // MARK: Positions

    @inline(__always)
    mutating func newLine() {
        line += 1
        lineStart = p
        lineIsASCII = true
    }

    /// The line and column of the `<` at `open`: columns in Unicode scalars from the line's start,
    /// as libxml2 counts them.
    @inline(__always)
    mutating func location(of open: UnsafePointer<UInt8>) -> SourceLocation {
        if lineIsASCII { return SourceLocation(line: line, column: open - lineStart + 1) }
        if counted < lineStart {
            // The first count on this line.
            counted = lineStart
            countedColumn = 0
        }
        countedColumn += scalars(from: counted, to: open)
        counted = open
        return SourceLocation(line: line, column: countedColumn + 1)
    }

    @inline(__always)
    func matches(_ literal: StaticString) -> Bool {
        end - p >= literal.utf8CodeUnitCount && equalBytes(p, literal.utf8Start, literal.utf8CodeUnitCount)
    }
}

/// Per byte value, 1 for the bytes text holds as they are: tab and printable ASCII but `<`, `&`
/// and `]`. Made once, never freed.
nonisolated(unsafe) private let plainTextBytes: UnsafePointer<UInt8> = {
    let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
    for byte in 0..<256 {
        let plain = byte == 0x09 || (byte >= 0x20 && byte < 0x80 && byte != 0x3C && byte != 0x26 && byte != 0x5D)
        table[byte] = plain ? 1 : 0
    }
    return UnsafePointer(table)
}()

@inline(__always)
private func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

@inline(__always)
private func isNameLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

@inline(__always)
private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

/// The bytes the scanner takes in attribute names and instruction targets: ASCII letters, digits,
/// `_`, `.`, `-`.
@inline(__always)
private func isNameCharacter(_ byte: UInt8) -> Bool {
    isNameLetter(byte) || isDigit(byte) || byte == 0x5F || byte == 0x2E || byte == 0x2D
}

/// Whether the `length` bytes at `name` start with `xml` in any case (reserved names).
private func startsWithXML(_ name: UnsafePointer<UInt8>, _ length: Int) -> Bool {
    length >= 3 && name[0] | 0x20 == 0x78 && name[1] | 0x20 == 0x6D && name[2] | 0x20 == 0x6C
}

/// Char in the XML 1.0 grammar.
private func isXMLCharacter(_ value: UInt32) -> Bool {
    switch value {
    case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
    default: false
    }
}

/// Writes `scalar` (an XML character) as UTF-8 into `out` (4 bytes); returns its length.
private func encode(_ scalar: UInt32, into out: UnsafeMutableRawBufferPointer) -> Int {
    var n = 0
    for byte in UTF8.encode(Unicode.Scalar(scalar)!).unsafelyUnwrapped {
        out[n] = byte
        n += 1
    }
    return n
}

/// Whether the `count` bytes at `a` and `b` are equal.
@inline(__always)
private func equalBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    for index in 0..<count where a[index] != b[index] { return false }
    return true
}
