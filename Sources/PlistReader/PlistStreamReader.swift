import CLibXML2

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw PlistFileError(path: path, reason: systemError(errno)) }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            throw PlistFileError(path: path, reason: "is a directory")
        }
        let parser = Parser(name: path, limits: limits, handler: handler)
        let chunkSize = 1 << 18
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var total = 0
        while !parser.isStopped {
            let count = Glibc.read(fd, buffer.baseAddress, chunkSize)
            if count < 0 {
                if errno == EINTR { continue }
                throw PlistFileError(path: path, reason: systemError(errno))
            }
            if count == 0 { break }
            total += count
            if total > limits.maxFileSize {
                parser.refuseSize(limit: limits.maxFileSize)
                return
            }
            parser.feed(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
        parser.finish()
    }

    /// Reads a property list held in memory; `name` stands for the file in messages.
    public static func read(
        bytes: UnsafeRawBufferPointer, name: String, limits: PlistLimits = .default, handler: PlistStreamHandler
    ) {
        let parser = Parser(name: name, limits: limits, handler: handler)
        if bytes.count > limits.maxFileSize {
            parser.refuseSize(limit: limits.maxFileSize)
            return
        }
        var offset = 0
        let chunkSize = 1 << 18
        while offset < bytes.count, !parser.isStopped {
            let end = min(offset + chunkSize, bytes.count)
            parser.feed(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
            offset = end
        }
        parser.finish()
    }

    /// Reads a property list held in a byte array.
    public static func read(bytes: [UInt8], name: String, limits: PlistLimits = .default, handler: PlistStreamHandler) {
        bytes.withUnsafeBytes { read(bytes: $0, name: name, limits: limits, handler: handler) }
    }
}

private func systemError(_ code: Int32) -> String {
    String(cString: strerror(code))
}

/// One libxml2 push-parser run.
private final class Parser {
    let state: UnsafeMutablePointer<ReaderState>
    let context: xmlParserCtxtPtr

    init(name: String, limits: PlistLimits, handler: PlistStreamHandler) {
        libxmlSetUp
        let state = UnsafeMutablePointer<ReaderState>.allocate(capacity: 1)
        state.initialize(to: ReaderState(handler: handler, limits: limits))
        var sax = makeHandler()
        self.state = state
        context = name.withCString { xmlCreatePushParserCtxt(&sax, state, nil, 0, $0) }
        let options = XML_PARSE_NONET.rawValue | XML_PARSE_BIG_LINES.rawValue | XML_PARSE_IGNORE_ENC.rawValue
            | XML_PARSE_NOCDATA.rawValue
        xmlCtxtUseOptions(context, Int32(options))
        xmlSwitchEncoding(context, XML_CHAR_ENCODING_UTF8)
        state.pointee.parser = context
    }

    deinit {
        xmlFreeParserCtxt(context)
        state.deinitialize(count: 1)
        state.deallocate()
    }

    var isStopped: Bool { state.pointee.stopped }

    /// Bytes of a leading UTF-8 byte order mark still to be recognized.
    private var bomBytesSeen = 0
    private var bomDecided = false

    func feed(_ bytes: UnsafeRawBufferPointer) {
        var bytes = bytes
        // libxml2 is told the input is UTF-8 before it sees any byte, so it no longer looks for a
        // byte order mark: drop one here.
        while !bomDecided, let first = bytes.first {
            let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
            if first == bom[bomBytesSeen] {
                bomBytesSeen += 1
                bytes = UnsafeRawBufferPointer(rebasing: bytes.dropFirst())
                if bomBytesSeen == 3 { bomDecided = true }
            } else {
                bomDecided = true
                if bomBytesSeen > 0 { bom[..<bomBytesSeen].withUnsafeBytes { push($0) } }
            }
        }
        push(bytes)
    }

    private func push(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty, !state.pointee.stopped else { return }
        _ = xmlParseChunk(context, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count), 0)
    }

    func finish() {
        guard !state.pointee.stopped else { return }
        _ = xmlParseChunk(context, nil, 0, 1)
        if !state.pointee.stopped, context.pointee.errNo != 0 || context.pointee.wellFormed == 0 {
            // libxml2 failed without telling us through the error callback.
            state.pointee.report(.malformed, "the XML is not well-formed", at: state.pointee.cursorLocation())
        }
        if !state.pointee.stopped, !state.pointee.sawDocumentElement {
            state.pointee.report(.malformed, "the file holds no XML element", at: SourceLocation(line: 1, column: 1))
        }
    }

    func refuseSize(limit: Int) {
        state.pointee.report(.forbidden, "the file is larger than \(limit) bytes", at: SourceLocation(line: 1, column: 1))
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
    "http://www.apple.com/DTDs/PropertyList-1.0.dtd", "https://www.apple.com/DTDs/PropertyList-1.0.dtd",
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
    sax.endDocument = { context in
        readerState(context).pointee.endDocument()
    }
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
        let undeclaredEntity = e.code == XML_WAR_UNDECLARED_ENTITY.rawValue || e.code == XML_ERR_UNDECLARED_ENTITY.rawValue
        guard e.level.rawValue >= XML_ERR_ERROR.rawValue || undeclaredEntity else { return }
        // With a push parser, the structured callback's context is the user data.
        let state = readerState(context)
        var message = optionalString(e.message.map { UnsafeRawPointer($0).assumingMemoryBound(to: xmlChar.self) }) ?? "malformed XML"
        while message.last == "\n" || message.last == " " { message.removeLast() }
        let location = SourceLocation(line: Int(e.line), column: Int(e.int2))
        state.pointee.report(undeclaredEntity ? .forbidden : .malformed, message, at: location)
    }
    return sax
}
