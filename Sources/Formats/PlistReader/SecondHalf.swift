import Dispatch
import Platform
import Synchronization

/// Where a large file is cut for two parsers: the first stops after the `</dict>` that ends at
/// `firstEnd`; the second starts at `secondStart`, the start of the line where the next `<dict>`
/// is, with nothing but white space (and at least one line break) in between.
///
/// Finding such bytes proves nothing: they may sit inside a comment, or close a dict nested in a
/// value. The first parser checks that a child of the split container really ends at `firstEnd`
/// (``ReaderState/checkFirstHalfEnd()``); until it does, nothing the second parser found counts.
struct SplitPlan: Equatable {
    var firstEnd: Int
    var secondStart: Int

    /// How far past the middle a cut is looked for.
    static let searchLength = 1 << 18

    /// The first cut in `bytes`, which hold the file from `offset` on.
    static func find(in bytes: UnsafeRawBufferPointer, at offset: Int) -> SplitPlan? {
        let close = Array("</dict>".utf8)
        let open = Array("<dict>".utf8)
        guard let start = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        let end = start + bytes.count
        var p = start
        while let found = findByte(UInt8(ascii: "<"), from: p, to: end) {
            p = found + 1
            guard end - found >= close.count + 1 + open.count, matches(found, close) else { continue }
            var q = found + close.count
            var lineStart: UnsafePointer<UInt8>?
            while q < end, q.pointee == 0x20 || q.pointee == 0x09 || q.pointee == 0x0D || q.pointee == 0x0A {
                if q.pointee == 0x0A { lineStart = q + 1 }
                q += 1
            }
            guard let lineStart, end - q >= open.count, matches(q, open) else { continue }
            return SplitPlan(
                firstEnd: offset + (found - start) + close.count, secondStart: offset + (lineStart - start))
        }
        return nil
    }

    private static func matches(_ p: UnsafePointer<UInt8>, _ literal: [UInt8]) -> Bool {
        for i in literal.indices where p[i] != literal[i] { return false }
        return true
    }
}

/// The second of two parsers reading one large file: from ``SplitPlan/secondStart`` to the end,
/// on its own thread, for the handler the first half's handler provided. It starts as soon as the
/// first parser has opened the container to split, and is cancelled if the first parser finds the
/// cut is not where a child of that container ends.
final class SecondHalf: @unchecked Sendable {
    let plan: SplitPlan
    private let origin: InputSource.Origin
    private let name: String
    private let limits: PlistLimits
    /// Asked when a streamed container opens in the first half: the handler of the second, if the
    /// container is split there.
    let offer: (PlistKind, _ depth: Int, _ key: PlistKey?) -> PlistStreamHandler?
    private let cancelled = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private var started = false
    /// Written by the second thread before it signals `finished`; read after ``wait()``.
    private(set) var handler: PlistStreamHandler?
    private(set) var readError: SystemError?
    /// Whether the file must be read again by one reader: libxml2 reported an error in this half
    /// (its messages name lines of tags only the first half read), or the scanner met bytes it does
    /// not take.
    private(set) var mustReadWhole = false

    /// When ``PlistScanner`` reads the file (its first pass took it): the file's bytes, which are
    /// `origin`'s, and their mapping.
    private let scanning: ScannedFile?

    init(
        plan: SplitPlan, origin: InputSource.Origin, name: String, limits: PlistLimits,
        offer: @escaping (PlistKind, Int, PlistKey?) -> PlistStreamHandler?, scanning: ScannedFile? = nil
    ) {
        self.plan = plan
        self.origin = origin
        self.name = name
        self.limits = limits
        self.offer = offer
        self.scanning = scanning
    }

    /// A plan for the file behind `origin`, of `size` bytes, when it is worth two parsers.
    static func plan(for origin: InputSource.Origin, size: Int, limits: PlistLimits) -> SplitPlan? {
        guard size <= limits.maxFileSize else { return nil }
        let middle = size / 2
        switch origin {
        case .memory(let bytes):
            let window = UnsafeRawBufferPointer(rebasing: bytes[middle..<min(size, middle + SplitPlan.searchLength)])
            return SplitPlan.find(in: window, at: middle)
        case .file(let fd):
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: SplitPlan.searchLength, alignment: 8)
            defer { buffer.deallocate() }
            guard let count = try? fd.read(into: buffer, at: middle) else { return nil }
            return SplitPlan.find(in: UnsafeRawBufferPointer(rebasing: buffer[..<count]), at: middle)
        case .stream:
            return nil
        }
    }

    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// Starts the second parser, which first opens `openElements` (the first parser's, at the
    /// container to split) without reporting them.
    func start(handler: PlistStreamHandler, openElements: ContiguousArray<OpenElement>) {
        started = true
        self.handler = handler
        DispatchQueue.global().async { [self] in
            run(handler: self.handler!, openElements: openElements)
            finished.signal()
        }
    }

    func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }

    /// Waits until the second parser, if started, is done.
    func wait() {
        if started { finished.wait() }
    }

    private func run(handler: PlistStreamHandler, openElements: ContiguousArray<OpenElement>) {
        let linesBefore: Int
        do {
            linesBefore = try lineBreaks(before: plan.secondStart)
        } catch {
            readError = error
            return
        }
        if let scanning {
            scan(scanning, handler: handler, openElements: openElements, line: linesBefore + 1)
            return
        }
        // libxml2 counts lines by their `\n`: the opening tags take line 1, the second half starts on line 2.
        var prefix: [UInt8] = []
        for element in openElements { prefix += Array("<\(element.tagName)>".utf8) }
        prefix.append(0x0A)
        var limits = self.limits
        limits.maxFileSize = .max  // the first parser checked the size
        let parser = Parser(
            name: name, source: origin, from: plan.secondStart, prefix: prefix, limits: limits, handler: handler,
            secondHalf: self)
        parser.state.pointee.prime(openElements, lineOffset: linesBefore + 1 - 2)
        parser.run()
        readError = parser.readError
        mustReadWhole = parser.state.pointee.libxmlReported
    }

    /// The scanner's second half: the state primed with the first half's open elements, the scan
    /// from the cut (the start of line `line`). Bytes the scanner does not take from there (only a
    /// cut that is no child's end, which the first half then finds, can hold such) make the file be
    /// read again whole, as libxml2's errors do.
    private func scan(
        _ file: ScannedFile, handler: PlistStreamHandler, openElements: ContiguousArray<OpenElement>, line: Int
    ) {
        let run = ScanRun(file: file, limits: limits, handler: handler)
        let outcome = run.runSecondHalf(of: self, from: plan.secondStart, line: line, inside: openElements)
        if outcome == .unsupported { mustReadWhole = true }
    }

    /// The `\n`s in the file's first `end` bytes.
    private func lineBreaks(before end: Int) throws(SystemError) -> Int {
        switch origin {
        case .memory(let bytes):
            return countLineBreaks(UnsafeRawBufferPointer(rebasing: bytes[..<end]))
        case .file(let fd):
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
            defer { buffer.deallocate() }
            var offset = 0
            var lines = 0
            while offset < end {
                let count = try fd.read(
                    into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<min(buffer.count, end - offset)]),
                    at: offset)
                guard count > 0 else { break }
                lines += countLineBreaks(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                offset += count
            }
            return lines
        case .stream:
            return 0
        }
    }
}

/// The `\n` bytes in `bytes`, sixteen at a time.
func countLineBreaks(_ bytes: UnsafeRawBufferPointer) -> Int {
    guard let base = bytes.baseAddress else { return 0 }
    let lineBreak = SIMD16<UInt8>(repeating: 0x0A)
    var n = 0
    var i = 0
    while bytes.count - i >= 16 {
        // Per lane, up to 255 matches before the sums are added up.
        var sums = SIMD16<UInt8>(repeating: 0)
        let end = min(bytes.count - 15, i + 255 * 16)
        while i < end {
            let block = base.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
            sums &+= SIMD16<UInt8>(repeating: 0).replacing(with: 1, where: block .== lineBreak)
            i += 16
        }
        n += Int(SIMD16<UInt16>(truncatingIfNeeded: sums).wrappedSum())
    }
    while i < bytes.count {
        if bytes[i] == 0x0A { n += 1 }
        i += 1
    }
    return n
}
