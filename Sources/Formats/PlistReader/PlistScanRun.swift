import Platform

/// A file ``PlistScanner`` reads: its bytes, and their mapping when they are a mapped file's.
struct ScannedFile {
    let bytes: UnsafeRawBufferPointer
    let mapping: MappedFile?
}

/// One reading of a file's bytes by ``PlistScanner``, as ``Parser`` is one by libxml2: the same
/// ``ReaderState`` receives the same events, the locations from the scanner.
final class ScanRun {
    let state: UnsafeMutablePointer<ReaderState>
    private let file: ScannedFile

    /// `splitting`: the second half this first half may start, as for ``Parser``.
    init(file: ScannedFile, limits: PlistLimits, handler: PlistStreamHandler, splitting: SecondHalf? = nil) {
        self.file = file
        state = ReaderState.allocate(handler: handler, limits: limits)
        state.pointee.scanned = file.bytes
        state.pointee.split = splitting.map { ReaderState.SplitWatch(half: $0) }
    }

    deinit {
        ReaderState.free(state)
    }

    /// Reads the whole file (its first half, when a second half starts and the cut is proved).
    /// `speculative`: no first pass took the file, and `.unsupported` says to read it with libxml2.
    func run(speculative: Bool) -> PlistScanner.Outcome {
        guard let base = file.bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return .unsupported }
        var cursor = PlistScanCursor(base: base, end: base + file.bytes.count)
        var events = ReaderEvents(state: state, mapping: file.mapping, half: nil, from: 0)
        let outcome = cursor.scan(&events, whole: true)
        // After a first pass took the file, only a file changed since can end here.
        if outcome == .unsupported, !speculative {
            state.pointee.report(
                .malformed, "the file changed while it was read; read it again", at: state.pointee.cursorLocation())
        }
        return outcome
    }

    /// Reads a file's second half for `half`: from `start`, the start of line `line`, inside the
    /// first half's open elements (primed into the state, no opening tags read for them).
    /// `.stopped` when the half is cancelled; `.unsupported` when the bytes from there are not the
    /// scanner's after all (the file is then read again whole).
    func runSecondHalf(
        of half: SecondHalf, from start: Int, line: Int, inside open: ContiguousArray<OpenElement>
    ) -> PlistScanner.Outcome {
        guard let base = file.bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return .unsupported }
        state.pointee.prime(open, lineOffset: 0, openingTagsFollow: false)
        var cursor = PlistScanCursor(
            base: base, end: base + file.bytes.count, start: start, line: line, open: open.map(\.scannedName))
        var events = ReaderEvents(state: state, mapping: file.mapping, half: half, from: start)
        return cursor.scan(&events, whole: false)
    }
}

/// Delivers a scan's events to a ``ReaderState`` as libxml2's callbacks do, giving back the pages
/// of the file behind the scan (a mapped file's pages read count as the process's memory).
struct ReaderEvents: PlistScanEvents {
    let state: UnsafeMutablePointer<ReaderState>
    let mapping: MappedFile?
    /// For a second half: cancelled when the first half finds the cut is not a child's end.
    let half: SecondHalf?
    /// Pages from here to the scan's position are given back.
    var from: Int
    /// ``PlistScanner/Name/cStrings``, read once rather than per element.
    let names = PlistScanner.Name.cStrings

    static var delivers: Bool { true }

    @inline(__always)
    mutating func start(_ name: UInt8, at location: SourceLocation, offset: Int) -> Bool {
        state.pointee.scanOffset = offset
        if state.pointee.entersElement() {
            let kind = name == PlistScanner.Name.plist ? nil : PlistKind(rawValue: name)
            state.pointee.startElement(names[PlistScanner.Name.index(name)], kind: kind, at: location)
        }
        return !state.pointee.stopped
    }

    @inline(__always)
    mutating func end(offset: Int) -> Bool {
        state.pointee.scanOffset = offset
        state.pointee.endElement()
        return !state.pointee.stopped
    }

    @inline(__always)
    mutating func text(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        state.pointee.characters(bytes, count)
        return !state.pointee.stopped
    }

    mutating func passed(_ offset: Int) -> Bool {
        mapping?.release(from..<offset)
        from = offset
        return !(half?.isCancelled ?? false)
    }
}

extension OpenElement {
    /// The element's name as ``PlistScanner`` keeps it.
    var scannedName: UInt8 { kind?.rawValue ?? PlistScanner.Name.plist }
}
