import Buffers
internal import CLibXML2
import Platform

/// An element that is open while reading.
struct OpenElement: BitwiseCopyable {
    enum Role {
        /// The `<plist>` document element.
        case plist
        /// A container whose children are delivered one by one.
        case streamed(PlistKind)
        /// An element being materialized at this index of the current fragment.
        case node(Int, PlistKind)
    }

    var role: Role
    var depth: Int
    var location: SourceLocation
    /// For dicts: a key was read and waits for its value.
    var awaitsValue = false
    /// For `<plist>`: how many values it holds.
    var values = 0
    /// Whether stray text in this container was already reported.
    var reportedText = false

    var kind: PlistKind? {
        switch role {
        case .plist: nil
        case .streamed(let kind), .node(_, let kind): kind
        }
    }

    /// The element's name, for the second half's opening tags.
    var tagName: String {
        switch role {
        case .plist: "plist"
        case .streamed(let kind), .node(_, let kind): kind.description
        }
    }

    var isStreamedParent: Bool {
        switch role {
        case .plist, .streamed: true
        case .node: false
        }
    }
}

/// Everything the SAX callbacks touch. It lives in memory the reader allocates, and the callbacks
/// receive a typed pointer to it, so no reference counting happens per event.
struct ReaderState {
    let handler: PlistStreamHandler
    let limits: PlistLimits
    var parser: xmlParserCtxtPtr?
    var fragment = PlistFragment()
    /// Plain data, so that pushing, popping and copying cost nothing beyond the bytes.
    var stack = RawBuffer<OpenElement>(capacity: 16)
    /// For `<plist>` and streamed containers, which always sit at the bottom of `stack` (a streamed
    /// container's parent is streamed too): the key of a streamed dict waiting for its value.
    var pendingKeys: ContiguousArray<PlistKey?> = []
    /// Nesting inside an element being skipped (unknown, or misplaced).
    var skipDepth = 0
    var sawDocumentElement = false
    var stopped = false

    /// For the first of two parsers: the second half, started when the container to split opens.
    var split: SplitWatch?
    /// Whether an element declared a namespace (the second half's opening tags could not repeat it).
    var namespacesDeclared = false
    /// For the second of two parsers: start tags still to come that `prime` already opened, and
    /// the lines before its first line.
    var primedTags = 0
    var lineOffset = 0
    /// A byte order mark the read callback dropped before libxml2 saw the bytes.
    var droppedBytes = 0
    /// Whether libxml2 reported an error itself (its messages may name lines).
    var libxmlReported = false
    /// When ``PlistScanner`` reads instead of libxml2 (`parser` is nil): the file's bytes, and the
    /// offset just past the tag of the last event, for the cursor's offset and location.
    var scanned: UnsafeRawBufferPointer?
    var scanOffset = 0

    init(handler: PlistStreamHandler, limits: PlistLimits) {
        self.handler = handler
        self.limits = limits
    }

    /// A state in memory of its own, for a reader's callbacks to reach by pointer; ``free(_:)``
    /// gives it back.
    static func allocate(handler: PlistStreamHandler, limits: PlistLimits) -> UnsafeMutablePointer<ReaderState> {
        let state = UnsafeMutablePointer<ReaderState>.allocate(capacity: 1)
        state.initialize(to: ReaderState(handler: handler, limits: limits))
        return state
    }

    /// Gives back a state from ``allocate(handler:limits:)`` and its stack.
    static func free(_ state: UnsafeMutablePointer<ReaderState>) {
        state.pointee.stack.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    // MARK: Issues

    /// Reports an issue; a fatal one stops the reading. From libxml2's read callback pass
    /// `haltingParser: false`: halting the parser there pulls the buffer from under libxml2, and the
    /// callback ends the input instead.
    mutating func report(
        _ kind: PlistIssue.Kind, _ message: String, at location: SourceLocation, haltingParser: Bool = true
    ) {
        guard !stopped else { return }
        let issue = PlistIssue(kind, message, at: location)
        if issue.isFatal {
            stopped = true
            if haltingParser, let parser { xmlStopParser(parser) }
        }
        handler.didFind(issue)
    }

    // MARK: Positions

    /// The line and column of the `<` that starts the tag the parser has just read, named `name`
    /// (`nameLength` bytes) when it is an element's start tag.
    func tagStartLocation(nameLength: Int = -1) -> SourceLocation {
        Self.tagStartLocation(parser: parser, lineOffset: lineOffset, nameLength: nameLength)
    }

    /// ``tagStartLocation(nameLength:)`` from the two fields it reads: a method on the whole state,
    /// called from a mutating one, had the state (161 bytes) copied per element.
    static func tagStartLocation(parser: xmlParserCtxtPtr?, lineOffset: Int, nameLength: Int) -> SourceLocation {
        guard let parser, let input = parser.pointee.input else { return SourceLocation(line: 0, column: 0) }
        let base = input.pointee.base!
        let cur = input.pointee.cur!
        var line = Int(input.pointee.line) + lineOffset
        // The tag's `<`: for a plain `<name>` or `<name/>` (the cursor is on its `>` or `/`), found at
        // once; otherwise the last `<` before the cursor (none can be inside the tag's attributes).
        var open: UnsafePointer<xmlChar>
        if nameLength > 0, cur - base > nameLength,
            cur.pointee == UInt8(ascii: ">") || cur.pointee == UInt8(ascii: "/"),
            (cur - nameLength - 1).pointee == UInt8(ascii: "<")
        {
            open = cur - nameLength - 1
            // libxml2 counts columns as it reads (in characters, as below): the cursor's, less the
            // tag's ASCII bytes. Debug builds check it against the count from the line's start.
            let column = Int(input.pointee.col) - (nameLength + 1)
            if column >= 1 {
                let location = SourceLocation(line: line, column: column)
                assert(location == scannedLocation(of: open, line: line, input: input), "libxml2's column")
                return location
            }
        } else {
            guard let found = lastByte(UInt8(ascii: "<"), from: base, to: cur) else {
                return SourceLocation(line: line, column: 1)
            }
            open = found
            line -= count(UInt8(ascii: "\n"), from: open, to: cur)
        }
        return scannedLocation(of: open, line: line, input: input)
    }

    /// The location of the `<` at `open` on `line`, its column counted from the line's start.
    private static func scannedLocation(of open: UnsafePointer<xmlChar>, line: Int, input: xmlParserInputPtr)
        -> SourceLocation
    {
        let base = input.pointee.base!
        let cur = input.pointee.cur!
        // The line starts after the last line break before the `<`, looked for within a bounded
        // window so that a hostile single-line file cannot make this quadratic.
        let floor = open - min(open - base, 16_384)
        if let lineBreak = lastByte(UInt8(ascii: "\n"), from: floor, to: open) {
            return SourceLocation(line: line, column: scalars(from: lineBreak + 1, to: open) + 1)
        }
        if floor == base, input.pointee.consumed == 0 {
            // The line starts the file. libxml2 takes a byte order mark there as no text: the one
            // its encoding's detection took is gone from `base`, but a second one is still there,
            // and is no column either (libxml2's own count skips it).
            let marked = PlistScanner.hasByteOrderMark(UnsafeRawBufferPointer(start: base, count: open - base))
            let start = marked ? base + 3 : base
            return SourceLocation(line: line, column: scalars(from: start, to: open) + 1)
        }
        // A line longer than the window: libxml2's column at the cursor, less the tag's own length.
        return SourceLocation(line: line, column: max(1, Int(input.pointee.col) - scalars(from: open, to: cur)))
    }

    /// The position of the parser's cursor (for text, which has no tag of its own).
    func cursorLocation() -> SourceLocation {
        if let scanned { return PlistScanner.location(of: scanOffset, in: scanned) }
        guard let parser, let input = parser.pointee.input else { return SourceLocation(line: 0, column: 0) }
        return SourceLocation(line: Int(input.pointee.line) + lineOffset, column: Int(input.pointee.col))
    }

    /// The offset in the file of the parser's cursor.
    func cursorOffset() -> Int {
        if scanned != nil { return scanOffset }
        guard let parser, let input = parser.pointee.input else { return 0 }
        return Int(input.pointee.consumed) + (input.pointee.cur - input.pointee.base) + droppedBytes
    }

    // MARK: Elements

    mutating func startElement(_ name: UnsafePointer<xmlChar>) {
        guard entersElement() else { return }
        let kind = elementKind(name)
        let location = Self.tagStartLocation(
            parser: parser, lineOffset: lineOffset, nameLength: kind.map { $0.nameLength } ?? -1)
        startElement(name, kind: kind, at: location)
    }

    /// Whether a start tag is looked at: not after a fatal issue, not for an opening tag standing for
    /// a primed element, not inside an element being skipped (whose depth it counts).
    mutating func entersElement() -> Bool {
        guard !stopped else { return false }
        if primedTags > 0 {
            primedTags -= 1
            return false
        }
        if skipDepth > 0 {
            skipDepth += 1
            return false
        }
        return true
    }

    /// A start tag named `name` (the plist kind it names, if any) whose `<` is at `location`: from
    /// libxml2's callback, or from ``PlistScanner``, which knows the location itself.
    mutating func startElement(_ name: UnsafePointer<xmlChar>, kind: PlistKind?, at location: SourceLocation) {
        guard stack.count > 0 else {
            sawDocumentElement = true
            if isPlistElement(name) {
                stack.append(OpenElement(role: .plist, depth: -1, location: location))
                pendingKeys.append(nil)
            } else {
                report(.structure, "the root element must be <plist>, not <\(string(name))>", at: location)
                skipDepth = 1
            }
            return
        }
        if stack.count >= limits.maxDepth {
            report(.forbidden, "elements nest deeper than \(limits.maxDepth) levels", at: location)
            return
        }
        guard let kind else {
            let what =
                isPlistElement(name) ? "<plist> may only be the root element" : "unknown element <\(string(name))>"
            report(
                .structure,
                "\(what); expected one of <dict>, <array>, <string>, <integer>, <real>, <true/>, <false/>, <date>, <data>",
                at: location)
            skip(consumingKeyOf: stack.count - 1)
            return
        }
        let parentIndex = stack.count - 1
        let parent = stack[parentIndex]
        switch parent.role {
        case .plist:
            stack[parentIndex].values += 1
            if kind == .key {
                report(.structure, "a <key> must be inside a <dict>", at: location)
                skipDepth = 1
                return
            }
            if parent.values > 0 {
                report(.structure, "<plist> must hold exactly one value; this <\(kind)> is a second one", at: location)
                skipDepth = 1
                return
            }
        case .streamed(let parentKind), .node(_, let parentKind):
            if !parentKind.isContainer {
                report(.structure, "<\(parentKind)> holds text, not a <\(kind)> element", at: location)
                skipDepth = 1
                return
            }
            if parentKind == .array, kind == .key {
                report(.structure, "a <key> must be inside a <dict>, not an <array>", at: location)
                skipDepth = 1
                return
            }
            if parentKind == .dict {
                if kind == .key {
                    if parent.awaitsValue { dropDanglingKey(parentIndex) }
                } else if parent.awaitsValue {
                    stack[parentIndex].awaitsValue = false
                } else {
                    report(.structure, "a <\(kind)> in a <dict> must follow a <key>", at: location)
                    skipDepth = 1
                    return
                }
            }
        }

        let depth = parent.depth + 1
        if parent.isStreamedParent, kind.isContainer {
            let key = pendingKeys[parentIndex]
            if handler.shouldStream(kind, depth: depth, key: key) {
                pendingKeys[parentIndex] = nil
                stack.append(OpenElement(role: .streamed(kind), depth: depth, location: location))
                pendingKeys.append(nil)
                handler.didOpen(kind, at: location, depth: depth, key: key)
                if split != nil { offerSecondHalf(kind, depth: depth, key: key) }
                return
            }
        }
        if fragment.nodes.count >= limits.maxValueElements {
            report(.forbidden, "one value holds more than \(limits.maxValueElements) elements", at: location)
            return
        }
        let index = fragment.nodes.count
        let textStart = fragment.text.count
        fragment.nodes.append(
            PlistNodeRecord(
                kind: kind, line: Int32(clamping: location.line), column: Int32(clamping: location.column),
                textStart: textStart, textEnd: textStart, end: index + 1))
        stack.append(OpenElement(role: .node(index, kind), depth: depth, location: location))
    }

    mutating func endElement() {
        guard !stopped else { return }
        if skipDepth > 0 {
            skipDepth -= 1
            return
        }
        guard let element = stack.popLast() else { return }
        switch element.role {
        case .plist:
            pendingKeys.removeLast()
            if element.values == 0 {
                report(.structure, "<plist> holds no value", at: element.location)
            }
        case .streamed(let kind):
            if kind == .dict, element.awaitsValue, let key = pendingKeys.last ?? nil {
                report(.structure, "<key>\(key.name.escapedForDisplay)</key> has no value", at: key.location)
            }
            pendingKeys.removeLast()
            if split?.container == stack.count { abandonSecondHalf() }
            handler.didClose(kind, depth: element.depth)
        case .node(let index, let kind):
            fragment.nodes[index].end = fragment.nodes.count
            if kind.isContainer {
                if kind == .dict, element.awaitsValue {
                    dropDanglingKey(at: fragment.nodes.count - 1)
                    fragment.nodes[index].end = fragment.nodes.count
                }
            } else {
                fragment.nodes[index].textEnd = fragment.text.count
                if kind == .true || kind == .false, !isBlank(fragment.nodes[index]) {
                    report(.structure, "<\(kind)/> must be empty", at: element.location)
                }
            }
            let parentIndex = stack.count - 1
            guard parentIndex >= 0 else { return }
            if kind == .key, stack[parentIndex].kind == .dict {
                stack[parentIndex].awaitsValue = true
                if stack[parentIndex].isStreamedParent {
                    let value = PlistValue(fragment: fragment, index: index)
                    pendingKeys[parentIndex] = PlistKey(name: value.text, location: value.location)
                    fragment.reset()
                }
                return
            }
            if stack[parentIndex].isStreamedParent {
                let key = pendingKeys[parentIndex]
                pendingKeys[parentIndex] = nil
                handler.didRead(PlistValue(fragment: fragment, index: index), depth: element.depth, key: key)
                if isKnownUniquelyReferenced(&fragment) {
                    fragment.reset()
                } else {
                    fragment = PlistFragment()
                }
                if split?.container == parentIndex { checkFirstHalfEnd() }
            }
        }
    }

    mutating func characters(_ bytes: UnsafePointer<xmlChar>, _ count: Int) {
        guard !stopped, skipDepth == 0, count > 0, stack.count > 0 else { return }
        if case .node(let index, let kind) = stack[stack.count - 1].role, !kind.isContainer {
            if fragment.text.count - fragment.nodes[index].textStart + count > limits.maxTextLength {
                report(
                    .forbidden, "the text of this <\(kind)> is longer than \(limits.maxTextLength) bytes",
                    at: stack[stack.count - 1].location)
                return
            }
            fragment.text.appendBytes(bytes, count)
            return
        }
        let top = stack[stack.count - 1]
        if !top.reportedText, !isBlank(UnsafeBufferPointer(start: bytes, count: count)) {
            stack[stack.count - 1].reportedText = true
            // The second half started with this flag clear.
            if let container = split?.container, stack.count - 1 <= container { abandonSecondHalf() }
            let container = top.kind.map { "<\($0)>" } ?? "<plist>"
            report(
                .structure, "text is not allowed directly inside \(container); put it in a <string>",
                at: cursorLocation())
        }
    }

    // MARK: Helpers

    /// Skips an element and its content. In a dict waiting for a value, the element stood for that
    /// value, so the key goes too (it has no usable value).
    private mutating func skip(consumingKeyOf parentIndex: Int) {
        skipDepth = 1
        guard stack[parentIndex].awaitsValue else { return }
        stack[parentIndex].awaitsValue = false
        if stack[parentIndex].isStreamedParent {
            pendingKeys[parentIndex] = nil
        } else {
            removeLastNode()
        }
    }

    /// Reports a key that the next key (or the dict's end) left without a value, and forgets it.
    private mutating func dropDanglingKey(_ parentIndex: Int) {
        stack[parentIndex].awaitsValue = false
        if stack[parentIndex].isStreamedParent {
            if let key = pendingKeys[parentIndex] {
                report(.structure, "<key>\(key.name.escapedForDisplay)</key> has no value", at: key.location)
            }
            pendingKeys[parentIndex] = nil
        } else {
            dropDanglingKey(at: fragment.nodes.count - 1)
        }
    }

    private mutating func dropDanglingKey(at index: Int) {
        let key = PlistValue(fragment: fragment, index: index)
        report(.structure, "<key>\(key.text.escapedForDisplay)</key> has no value", at: key.location)
        removeLastNode()
    }

    private mutating func removeLastNode() {
        guard let last = fragment.nodes.popLast() else { return }
        fragment.text.truncate(to: last.textStart)
    }

    private func isBlank(_ record: PlistNodeRecord) -> Bool {
        fragment.text.withUnsafeBufferPointer {
            isBlank(UnsafeBufferPointer(rebasing: $0[record.textStart..<record.textEnd]))
        }
    }

    private func isBlank(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where !(byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09) {
            return false
        }
        return true
    }
}

// MARK: - Bytes

private func lastByte(_ byte: UInt8, from start: UnsafePointer<xmlChar>, to end: UnsafePointer<xmlChar>)
    -> UnsafePointer<xmlChar>?
{
    guard end > start else { return nil }
    return checkout_memrchr(start, Int32(byte), end - start)
}

private func count(_ byte: UInt8, from start: UnsafePointer<xmlChar>, to end: UnsafePointer<xmlChar>) -> Int {
    var n = 0
    var p = start
    while let found = findByte(byte, from: p, to: end) {
        n += 1
        p = found + 1
    }
    return n
}

/// Unicode scalars in the UTF-8 bytes `start..<end`: bytes that are not continuation bytes,
/// eight at a time while they are ASCII.
func scalars(from start: UnsafePointer<xmlChar>, to end: UnsafePointer<xmlChar>) -> Int {
    var n = 0
    var p = start
    while end - p >= 8 {
        let word = UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)
        if word & 0x8080_8080_8080_8080 == 0 {
            n += 8
        } else {
            for i in 0..<8 where p[i] & 0xC0 != 0x80 { n += 1 }
        }
        p += 8
    }
    while p < end {
        if p.pointee & 0xC0 != 0x80 { n += 1 }
        p += 1
    }
    return n
}

// MARK: - Element names

private func string(_ name: UnsafePointer<xmlChar>) -> String {
    String(cString: UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self))
}

private func isPlistElement(_ name: UnsafePointer<xmlChar>) -> Bool {
    matches(name, "plist")
}

@inline(__always)
private func matches(_ name: UnsafePointer<xmlChar>, _ literal: StaticString) -> Bool {
    let bytes = literal.utf8Start
    for i in 0..<literal.utf8CodeUnitCount where name[i] != bytes[i] {
        return false
    }
    return name[literal.utf8CodeUnitCount] == 0
}

/// The plist kind named by an element name, or nil for anything else. Compares bytes, never
/// allocating: this runs once per element.
private func elementKind(_ name: UnsafePointer<xmlChar>) -> PlistKind? {
    switch name[0] {
    case UInt8(ascii: "k"): matches(name, "key") ? .key : nil
    case UInt8(ascii: "s"): matches(name, "string") ? .string : nil
    case UInt8(ascii: "i"): matches(name, "integer") ? .integer : nil
    case UInt8(ascii: "r"): matches(name, "real") ? .real : nil
    case UInt8(ascii: "t"): matches(name, "true") ? .true : nil
    case UInt8(ascii: "f"): matches(name, "false") ? .false : nil
    case UInt8(ascii: "a"): matches(name, "array") ? .array : nil
    case UInt8(ascii: "d"):
        matches(name, "dict") ? .dict : matches(name, "date") ? .date : matches(name, "data") ? .data : nil
    default: nil
    }
}
