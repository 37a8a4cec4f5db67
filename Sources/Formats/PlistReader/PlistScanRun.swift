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
    private let bytes: UnsafeRawBufferPointer
    private let mapping: MappedFile?

    /// `splitting`: the second half this first half may start, as for ``Parser``.
    init(
        bytes: UnsafeRawBufferPointer, mapping: MappedFile?, limits: PlistLimits, handler: PlistStreamHandler,
        splitting: SecondHalf? = nil
    ) {
        self.bytes = bytes
        self.mapping = mapping
        state = .allocate(capacity: 1)
        state.initialize(to: ReaderState(handler: handler, limits: limits))
        state.pointee.scanned = bytes
        state.pointee.split = splitting.map { ReaderState.SplitWatch(half: $0) }
    }

    deinit {
        state.pointee.stack.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Reads the whole file (its first half, when a second half starts and the cut is proved).
    /// `speculative`: no first pass took the file, and `.unsupported` says to read it with libxml2.
    func run(speculative: Bool) -> PlistScanner.Outcome {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return .unsupported }
        var cursor = PlistScanCursor(base: base, end: base + bytes.count)
        var events = ReaderEvents(state: state, mapping: mapping, half: nil, from: 0)
        let outcome = cursor.scan(&events, whole: true)
        // After a first pass took the file, only a file changed since can end here.
        if outcome == .unsupported, !speculative {
            state.pointee.report(
                .malformed, "the file changed while it was read; read it again", at: state.pointee.cursorLocation())
        }
        return outcome
    }

    /// The second half of a file the first pass took: from `start`, line `line`, inside `open`
    /// (the first half's open elements, already in `state`); nil when cancelled or the bytes from
    /// there are not the scanner's after all (then the file is read again whole).
    static func runSecondHalf(
        bytes: UnsafeRawBufferPointer, mapping: MappedFile?, start: Int, line: Int, open: [UInt8],
        state: UnsafeMutablePointer<ReaderState>, half: SecondHalf
    ) -> PlistScanner.Outcome {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return .unsupported }
        var cursor = PlistScanCursor(base: base, end: base + bytes.count, start: start, line: line, open: open)
        var events = ReaderEvents(state: state, mapping: mapping, half: half, from: start)
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
