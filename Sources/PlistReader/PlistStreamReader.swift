internal import CLibXML2
import Platform

/// Reads Apple XML property lists (version 1.0) with libxml2's streaming SAX2 parser.
///
/// Untrusted files are safe to read: the network is never used, no external DTD or entity is ever
/// loaded, any DTD declaration (entities included) stops the reading, and sizes and depths are
/// bounded by ``PlistLimits``. Memory does not grow with the file: it is read in chunks, and only the
/// values the handler does not stream are held, one at a time.
public enum PlistStreamReader {
    /// Reads the file at `path`, reporting what it holds to `handler`.
    ///
    /// - Throws: ``PlistFileError`` when the file cannot be opened or read. Problems with its
    ///   content are reported to the handler as ``PlistIssue``s instead.
    public static func read(
        contentsOf path: String, limits: PlistLimits = .default, handler: PlistStreamHandler
    ) throws(PlistFileError) {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(forReading: path)
        } catch {
            throw PlistFileError(path: path, reason: error.description)
        }
        defer { fd.close() }
        if case .directory? = fd.kind() {
            throw PlistFileError(path: path, reason: "is a directory")
        }
        let parser = Parser(name: path, source: .file(fd), limits: limits, handler: handler)
        parser.run()
        if let error = parser.readError { throw PlistFileError(path: path, reason: error.description) }
    }

    /// Reads a property list held in memory; `name` stands for the file in messages.
    public static func read(
        bytes: UnsafeRawBufferPointer, name: String, limits: PlistLimits = .default, handler: PlistStreamHandler
    ) {
        Parser(name: name, source: .memory(bytes), limits: limits, handler: handler).run()
    }

    /// Reads a property list held in a byte array.
    public static func read(bytes: [UInt8], name: String, limits: PlistLimits = .default, handler: PlistStreamHandler) {
        bytes.withUnsafeBytes { read(bytes: $0, name: name, limits: limits, handler: handler) }
    }
}

/// Where libxml2 pulls the bytes from, through ``readInput``.
struct InputSource {
    enum Origin {
        case file(FileDescriptor)
        case memory(UnsafeRawBufferPointer)
    }

    let origin: Origin
    let limit: Int
    let state: UnsafeMutablePointer<ReaderState>
    var offset = 0
    var bomChecked = false
    var readError: SystemError?
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
    var count: Int
    switch input.pointee.origin {
    case .file(let fd):
        do {
            count = try fd.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(length)))
        } catch {
            input.pointee.readError = error
            input.pointee.state.pointee.stopped = true
            return 0
        }
    case .memory(let bytes):
        count = min(Int(length), bytes.count - input.pointee.offset)
        if count > 0 {
            UnsafeMutableRawPointer(buffer).copyMemory(
                from: bytes.baseAddress! + input.pointee.offset, byteCount: count)
        }
    }
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
        }
    }
    return Int32(count)
}

/// One libxml2 parse, pulling bytes from its source as it goes.
private final class Parser {
    let state: UnsafeMutablePointer<ReaderState>
    let input: UnsafeMutablePointer<InputSource>
    let context: xmlParserCtxtPtr

    init(name: String, source: InputSource.Origin, limits: PlistLimits, handler: PlistStreamHandler) {
        libxmlSetUp
        let state = UnsafeMutablePointer<ReaderState>.allocate(capacity: 1)
        state.initialize(to: ReaderState(handler: handler, limits: limits))
        let input = UnsafeMutablePointer<InputSource>.allocate(capacity: 1)
        input.initialize(to: InputSource(origin: source, limit: limits.maxFileSize, state: state))
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
        state.deinitialize(count: 1)
        state.deallocate()
        input.deinitialize(count: 1)
        input.deallocate()
    }

    var readError: SystemError? { input.pointee.readError }

    func run() {
        guard !state.pointee.stopped else { return }
        _ = xmlParseDocument(context)
        if !state.pointee.stopped, context.pointee.errNo != 0 || context.pointee.wellFormed == 0 {
            // libxml2 failed without telling us through the error callback.
            state.pointee.report(.malformed, "the XML is not well-formed", at: state.pointee.cursorLocation())
        }
        if !state.pointee.stopped, !state.pointee.sawDocumentElement {
            state.pointee.report(.malformed, "the file holds no XML element", at: SourceLocation(line: 1, column: 1))
        }
    }
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
private let applePublicIDs: Set<String> = ["-//Apple//DTD PLIST 1.0//EN", "-//Apple Computer//DTD PLIST 1.0//EN"]
private let appleSystemIDs: Set<String> = [
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
    sax.startElementNs = { context, name, _, _, _, _, _, _, _ in
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
        let location = SourceLocation(line: Int(e.line), column: Int(e.int2))
        state.pointee.report(undeclaredEntity ? .forbidden : .malformed, message, at: location)
    }
    return sax
}
