internal import CLibXML2
import Platform

/// Reads Apple XML property lists (version 1.0) with libxml2's streaming SAX2 parser.
///
/// Untrusted files are safe to read: the network is never used, no external DTD or entity is ever
/// loaded, any DTD declaration (entities included) stops the reading, and sizes and depths are
/// bounded by ``PlistLimits``. Memory does not grow with the file: it is read in chunks, and only the
/// values the handler does not stream are held, one at a time.
public enum PlistStreamReader {
    /// Reads the file at `path`, reporting what it holds to `handler`. (``PlistHalves`` reads a
    /// large file with two parsers at once.)
    ///
    /// - Throws: ``PlistFileError`` when the file cannot be opened or read. Problems with its
    ///   content are reported to the handler as ``PlistIssue``s instead.
    public static func read(contentsOf path: String, limits: PlistLimits = .default, handler: PlistStreamHandler)
        throws(PlistFileError)
    {
        try read(contentsOf: path, limits: limits, handler: handler, halving: nil)
    }

    /// Reads a property list held in memory; `name` stands for the file in messages.
    public static func read(
        bytes: UnsafeRawBufferPointer, name: String, limits: PlistLimits = .default, handler: PlistStreamHandler
    ) {
        read(bytes: bytes, name: name, limits: limits, handler: handler, halving: nil)
    }

    /// As ``read(bytes:name:limits:handler:)`` with the reader chosen: ``Engine/libxml2`` is the
    /// reference ``PlistScanner`` is compared with (tests and the fuzzer).
    @_spi(Reference) public static func read(
        bytes: UnsafeRawBufferPointer, name: String, limits: PlistLimits = .default, handler: PlistStreamHandler,
        engine: Engine
    ) {
        read(bytes: bytes, name: name, limits: limits, handler: handler, halving: nil, engine: engine)
    }

    /// Reads a property list held in a byte array.
    public static func read(bytes: [UInt8], name: String, limits: PlistLimits = .default, handler: PlistStreamHandler) {
        bytes.withUnsafeBytes { read(bytes: $0, name: name, limits: limits, handler: handler) }
    }

    /// As ``read(contentsOf:limits:handler:)``; with `halving`, a regular file large enough may be
    /// read by two parsers (``PlistHalves``), and the result says how it went.
    @discardableResult
    static func read(
        contentsOf path: String, limits: PlistLimits, handler: PlistStreamHandler, halving: Halving?,
        engine: Engine = .scannerFirst
    ) throws(PlistFileError) -> Reading {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(forReading: path)
        } catch {
            throw PlistFileError(path: path, reason: error.description)
        }
        defer { fd.close() }
        let kind = fd.kind()
        if case .directory? = kind {
            throw PlistFileError(path: path, reason: "is a directory")
        }
        if engine != .libxml2, case .regular(let size)? = kind, size > 0, size <= limits.maxFileSize,
            let mapping = MappedFile(fd, size: size, name: path)
        {
            defer { mapping.unmap() }
            let file = ScannedFile(bytes: UnsafeRawBufferPointer(mapping.bytes), mapping: mapping)
            if let reading = scan(file, name: path, limits: limits, handler: handler, halving: halving, engine: engine)
            {
                return reading
            }
        }
        var regularSize: Int?
        if case .regular(let size)? = kind { regularSize = size }
        var half: SecondHalf?
        if let halving, case .regular(let size)? = kind, size >= halving.from,
            let plan = SecondHalf.plan(for: .file(fd), size: size, limits: limits)
        {
            half = SecondHalf(plan: plan, origin: .file(fd), name: path, limits: limits, offer: halving.offer)
        }
        let parser = Parser(
            name: path, source: .stream(fd), size: regularSize, limits: limits, handler: handler, splitting: half)
        parser.run()
        let reading = parser.finishHalves()
        if let error = parser.readError ?? half?.readError {
            throw PlistFileError(path: path, reason: error.description)
        }
        return reading
    }

    /// As ``read(bytes:name:limits:handler:)``, with `halving` as for a file.
    @discardableResult
    static func read(
        bytes: UnsafeRawBufferPointer, name: String, limits: PlistLimits, handler: PlistStreamHandler,
        halving: Halving?, engine: Engine = .scannerFirst
    ) -> Reading {
        if engine != .libxml2, bytes.count > 0, bytes.count <= limits.maxFileSize,
            let reading = scan(
                ScannedFile(bytes: bytes, mapping: nil), name: name, limits: limits, handler: handler, halving: halving,
                engine: engine)
        {
            return reading
        }
        var half: SecondHalf?
        if let halving, bytes.count >= halving.from,
            let plan = SecondHalf.plan(for: .memory(bytes), size: bytes.count, limits: limits)
        {
            half = SecondHalf(plan: plan, origin: .memory(bytes), name: name, limits: limits, offer: halving.offer)
        }
        let parser = Parser(
            name: name, source: .memory(bytes), limits: limits, handler: handler, splitting: half)
        parser.run()
        return parser.finishHalves()
    }

    /// Which reader reads a file.
    @_spi(Reference) public enum Engine: Sendable {
        /// ``PlistScanner`` when its first pass takes the file, else libxml2.
        case scannerFirst
        /// ``PlistScanner`` without a first pass; if it meets what it does not take, the handlers
        /// have received part of the file: the reading is ``Reading/readAgainWithLibxml2``.
        case scannerSpeculative
        /// libxml2 only: the reference the scanner is compared with in tests.
        case libxml2
    }

    /// Reads a file (of a size within the limits) with ``PlistScanner``, with a second half as
    /// libxml2's would have: after the first pass takes it for ``Engine/scannerFirst`` (nil, nothing
    /// read, when it does not), at once for ``Engine/scannerSpeculative``.
    private static func scan(
        _ file: ScannedFile, name: String, limits: PlistLimits, handler: PlistStreamHandler, halving: Halving?,
        engine: Engine
    ) -> Reading? {
        let speculative = engine == .scannerSpeculative
        if !speculative {
            let passed: (Int) -> Void = { file.mapping?.release(before: $0) }
            guard PlistScanner.accepts(file.bytes, limits: limits, passed: passed) else { return nil }
        }
        var half: SecondHalf?
        if let halving, file.bytes.count >= halving.from,
            let plan = SecondHalf.plan(for: .memory(file.bytes), size: file.bytes.count, limits: limits)
        {
            half = SecondHalf(
                plan: plan, origin: .memory(file.bytes), name: name, limits: limits, offer: halving.offer,
                scanning: file)
        }
        let run = ScanRun(file: file, limits: limits, handler: handler, splitting: half)
        let outcome = run.run(speculative: speculative)
        let reading = run.state.pointee.finishHalves()
        return outcome == .unsupported ? .readAgainWithLibxml2 : reading
    }

    /// When a file may be read by two parsers (``PlistHalves``): from `from` bytes, if `offer`, asked
    /// right after a streamed container opened, gives the handler for everything after the cut.
    struct Halving {
        var from: Int
        var offer: (PlistKind, _ depth: Int, _ key: PlistKey?) -> PlistStreamHandler?
    }

    /// How a file was read.
    enum Reading {
        /// By one parser: the handler received everything.
        case whole
        /// By two parsers: the handler received everything before the middle, `second` everything
        /// after; merge them.
        case halves(second: PlistStreamHandler)
        /// The second parser found malformed XML, whose libxml2 messages only a parser that read the
        /// whole file words right (they name lines of tags it opened): both handlers received part of
        /// the file; read it again with one parser.
        case readAgainWhole
        /// ``Engine/scannerSpeculative`` met what it leaves to libxml2: the handlers received part
        /// of the file; read it again with libxml2.
        case readAgainWithLibxml2
    }
}

/// Where libxml2 pulls the bytes from, through ``readInput``.
struct InputSource {
    enum Origin {
        /// Read in order from the descriptor's position (pipes too).
        case stream(FileDescriptor)
        /// Read from `position` on without moving the descriptor's position: a regular file two
        /// parsers read at once.
        case file(FileDescriptor)
        case memory(UnsafeRawBufferPointer)
    }

    let origin: Origin
    let limit: Int
    /// The input's size when known (a regular file).
    let size: Int?
    let state: UnsafeMutablePointer<ReaderState>
    /// Bytes given to libxml2 before the origin's: the second half's opening tags.
    var prefix: [UInt8]
    var prefixSent = 0
    /// Where the next read starts in a file or memory origin.
    var position: Int
    /// Bytes taken from the origin so far, for the size limit.
    var offset = 0
    var bomChecked: Bool
    var readError: SystemError?
    /// For a second half: cancelled when the first finds the cut is not between two elements.
    let secondHalf: SecondHalf?
}

/// libxml2's read callback: fills `buffer` with up to `length` bytes, 0 at the end. A failure (read
/// error, size limit) stops the reading and ends the input: libxml2 may read before the context
/// exists, and does not survive a -1 there.
/// A leading UTF-8 byte order mark is dropped (libxml2 is told the input is UTF-8 before it sees
/// any byte, so it no longer looks for one).
private func readInput(_ context: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ length: Int32)
    -> Int32
{
    let input = context.unsafelyUnwrapped.assumingMemoryBound(to: InputSource.self)
    guard let buffer, length > 0, !input.pointee.state.pointee.stopped else { return 0 }
    if let half = input.pointee.secondHalf, half.isCancelled { return 0 }
    let out = UnsafeMutableRawBufferPointer(start: buffer, count: Int(length))
    if input.pointee.prefixSent < input.pointee.prefix.count {
        let count = min(out.count, input.pointee.prefix.count - input.pointee.prefixSent)
        input.pointee.prefix.withUnsafeBytes {
            out.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[input.pointee.prefixSent...].prefix(count)))
        }
        input.pointee.prefixSent += count
        return Int32(count)
    }
    // A file known to be over the limit is refused before any of it is read (a sparse file of
    // zeros would otherwise end at libxml2's "Document is empty").
    if let size = input.pointee.size, size > input.pointee.limit {
        input.pointee.state.pointee.report(
            .forbidden, "the file is larger than \(input.pointee.limit) bytes", at: SourceLocation(line: 1, column: 1),
            haltingParser: false)
        return 0
    }
    var count: Int
    do {
        switch input.pointee.origin {
        case .stream(let fd):
            count = try fd.read(into: out)
        case .file(let fd):
            count = try fd.read(into: out, at: input.pointee.position)
        case .memory(let bytes):
            count = min(out.count, bytes.count - input.pointee.position)
            if count > 0 {
                out.baseAddress!.copyMemory(from: bytes.baseAddress! + input.pointee.position, byteCount: count)
            }
        }
    } catch {
        input.pointee.readError = error
        input.pointee.state.pointee.stopped = true
        return 0
    }
    input.pointee.position += count
    input.pointee.offset += count
    if input.pointee.offset > input.pointee.limit {
        input.pointee.state.pointee.report(
            .forbidden, "the file is larger than \(input.pointee.limit) bytes",
            at: SourceLocation(line: 1, column: 1), haltingParser: false)
        return 0
    }
    if !input.pointee.bomChecked, count > 0 {
        input.pointee.bomChecked = true
        // The whole mark arrives in the first read: reads are at least 4 bytes unless the file is shorter.
        let raw = UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: UInt8.self)
        if count >= 3, raw[0] == 0xEF, raw[1] == 0xBB, raw[2] == 0xBF {
            (raw).update(from: raw + 3, count: count - 3)
            count -= 3
            input.pointee.state.pointee.droppedBytes = 3
        }
    }
    return Int32(count)
}

/// One libxml2 parse, pulling bytes from its source as it goes.
final class Parser {
    let state: UnsafeMutablePointer<ReaderState>
    let input: UnsafeMutablePointer<InputSource>
    let context: xmlParserCtxtPtr

    /// `position`, `prefix`, `secondHalf`: for the second of two parsers (``SecondHalf``).
    /// `splitting`: for the first, the second half it may start.
    /// `size`: the input's size when known (a regular file): over the limit, it is refused before
    /// any byte is read.
    init(
        name: String, source: InputSource.Origin, from position: Int = 0, prefix: [UInt8] = [], size: Int? = nil,
        limits: PlistLimits, handler: PlistStreamHandler, splitting: SecondHalf? = nil,
        secondHalf: SecondHalf? = nil
    ) {
        libxmlSetUp
        let state = ReaderState.allocate(handler: handler, limits: limits)
        state.pointee.split = splitting.map { ReaderState.SplitWatch(half: $0) }
        let input = UnsafeMutablePointer<InputSource>.allocate(capacity: 1)
        input.initialize(
            to: InputSource(
                origin: source, limit: limits.maxFileSize, size: size, state: state, prefix: prefix,
                position: position,
                bomChecked: position > 0 || !prefix.isEmpty, secondHalf: secondHalf))
        var sax = makeHandler()
        self.state = state
        self.input = input
        context = xmlCreateIOParserCtxt(&sax, state, readInput, nil, input, XML_CHAR_ENCODING_UTF8)
        if let file = name.withCString({ xmlStrdup(UnsafeRawPointer($0).assumingMemoryBound(to: xmlChar.self)) }) {
            // Messages from libxml2 name the file; its `filename` is owned by the input.
            context.pointee.input.pointee.filename = UnsafePointer(
                UnsafeRawPointer(file).assumingMemoryBound(to: CChar.self))
        }
        let options =
            XML_PARSE_NONET.rawValue | XML_PARSE_BIG_LINES.rawValue | XML_PARSE_IGNORE_ENC.rawValue
            | XML_PARSE_NOCDATA.rawValue
        xmlCtxtUseOptions(context, Int32(options))
        state.pointee.parser = context
    }

    deinit {
        // In SAX mode libxml2 still builds a document with a fake DTD when it meets an entity
        // declaration ("expat compatibility"), and leaves it to the caller (found by fuzzing).
        if let document = context.pointee.myDoc {
            context.pointee.myDoc = nil
            xmlFreeDoc(document)
        }
        xmlFreeParserCtxt(context)
        ReaderState.free(state)
        input.deinitialize(count: 1)
        input.deallocate()
    }

    var readError: SystemError? { input.pointee.readError }

    func run() {
        guard !state.pointee.stopped else { return }
        _ = xmlParseDocument(context)
        if !state.pointee.stopped, context.pointee.errNo != 0 || context.pointee.wellFormed == 0 {
            // libxml2 failed without telling us through the error callback.
            state.pointee.libxmlReported = true
            state.pointee.report(.malformed, "the XML is not well-formed", at: state.pointee.cursorLocation())
        }
        if !state.pointee.stopped, !state.pointee.sawDocumentElement {
            state.pointee.report(.malformed, "the file holds no XML element", at: SourceLocation(line: 1, column: 1))
        }
        // libxml2 (2.9) takes a NUL byte after the root element for the end of the file and says
        // nothing of it or of what follows: bytes left unread after a well-formed document start
        // at such a NUL.
        if !state.pointee.stopped, state.pointee.sawDocumentElement, context.pointee.wellFormed != 0,
            let input = context.pointee.input, let cur = input.pointee.cur, let end = input.pointee.end, cur < end
        {
            state.pointee.report(
                .malformed,
                "a NUL byte (U+0000) after the root element, which XML does not allow: remove it and what follows it",
                at: state.pointee.cursorLocation())
        }
    }

    /// After ``run()`` of a first parser: waits for the second, if one started, and says how the
    /// file was read.
    func finishHalves() -> PlistStreamReader.Reading { state.pointee.finishHalves() }
}

/// One-time libxml2 set-up: initialization and the loader that refuses every external resource.
private let libxmlSetUp: Void = {
    xmlInitParser()
    checkout_xml_install_refusing_loader()
}()

@inline(__always)
private func readerState(_ context: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<ReaderState> {
    context.unsafelyUnwrapped.assumingMemoryBound(to: ReaderState.self)
}

/// Apple's own DTD, named by every property list Xcode writes. It is never loaded, only tolerated.
let applePublicIDs: Set<String> = ["-//Apple//DTD PLIST 1.0//EN", "-//Apple Computer//DTD PLIST 1.0//EN"]
let appleSystemIDs: Set<String> = [
    "http://www.apple.com/DTDs/PropertyList-1.0.dtd", "https://www.apple.com/DTDs/PropertyList-1.0.dtd"
]

/// Stops the reading at a forbidden declaration, located at its `<!`.
private func forbid(_ context: UnsafeMutableRawPointer?, _ what: String) {
    let state = readerState(context)
    state.pointee.report(.forbidden, what, at: state.pointee.tagStartLocation())
}

private func optionalString(_ p: UnsafePointer<xmlChar>?) -> String? {
    p.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
}

private func makeHandler() -> xmlSAXHandler {
    var sax = xmlSAXHandler()
    sax.initialized = UInt32(XML_SAX2_MAGIC)
    sax.startElementNs = { context, name, _, _, namespaces, _, _, _, _ in
        if namespaces > 0 { readerState(context).pointee.namespacesDeclared = true }
        readerState(context).pointee.startElement(name.unsafelyUnwrapped)
    }
    sax.endElementNs = { context, _, _, _ in
        readerState(context).pointee.endElement()
    }
    sax.characters = { context, bytes, count in
        readerState(context).pointee.characters(bytes.unsafelyUnwrapped, Int(count))
    }
    sax.cdataBlock = sax.characters
    sax.internalSubset = { context, _, publicID, systemID in
        let publicID = optionalString(publicID)
        let systemID = optionalString(systemID)
        if let publicID, !applePublicIDs.contains(publicID) {
            forbid(context, "DOCTYPE names the external DTD \"\(publicID)\"; only Apple's plist DTD is allowed")
        } else if let systemID, !appleSystemIDs.contains(systemID) {
            forbid(context, "DOCTYPE names the external DTD \"\(systemID)\"; only Apple's plist DTD is allowed")
        }
    }
    sax.entityDecl = { context, name, _, _, _, _ in
        forbid(context, "entity declarations are not allowed (entity \"\(optionalString(name) ?? "")\")")
    }
    sax.unparsedEntityDecl = { context, name, _, _, _ in
        forbid(context, "entity declarations are not allowed (entity \"\(optionalString(name) ?? "")\")")
    }
    sax.elementDecl = { context, _, _, _ in
        forbid(context, "DTD declarations are not allowed in a property list")
    }
    sax.attributeDecl = { context, _, _, _, _, _, _ in
        forbid(context, "DTD declarations are not allowed in a property list")
    }
    sax.notationDecl = { context, _, _, _ in
        forbid(context, "DTD declarations are not allowed in a property list")
    }
    sax.reference = { context, name in
        forbid(context, "entity references are not allowed (&\(optionalString(name) ?? "");)")
    }
    sax.serror = { context, error in
        guard let error else { return }
        let e = error.pointee
        let undeclaredEntity =
            e.code == XML_WAR_UNDECLARED_ENTITY.rawValue || e.code == XML_ERR_UNDECLARED_ENTITY.rawValue
        guard e.level.rawValue >= XML_ERR_ERROR.rawValue || undeclaredEntity else { return }
        // With a push parser, the structured callback's context is the user data.
        let state = readerState(context)
        var message =
            optionalString(e.message.map { UnsafeRawPointer($0).assumingMemoryBound(to: xmlChar.self) })
            ?? "malformed XML"
        while message.last == "\n" || message.last == " " { message.removeLast() }
        // One line, as reporters write one diagnostic per line: some messages run on to a second
        // ("Input is not proper UTF-8, indicate encoding !\nBytes: 0xFF 0x3C …").
        if message.contains(where: \.isNewline) {
            message = message.split(whereSeparator: \.isNewline).joined(separator: " ")
        }
        let location = SourceLocation(line: Int(e.line) + state.pointee.lineOffset, column: Int(e.int2))
        state.pointee.libxmlReported = true
        state.pointee.report(undeclaredEntity ? .forbidden : .malformed, message, at: location)
    }
    return sax
}
