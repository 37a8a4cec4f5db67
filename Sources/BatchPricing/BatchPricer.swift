import Buffers
import Dispatch
import Explanations
import InputFiles
import Platform
import Pricing
import Receipts

/// Told how a long run is going: after each group of blocks, the bytes read and carts priced so far.
public protocol ProgressReporter: AnyObject {
    func update(bytes: Int, carts: Int)
    /// The run is over.
    func finish()
}

/// Prices a batch (one cart per line) on every core: the input is cut into blocks of whole lines,
/// groups of blocks are priced in parallel, and their results are written in input order. Memory
/// holds a few blocks at a time, whatever the size of the input.
public struct BatchPricer: Sendable {
    public let rules: RuleSet
    public let coupons: [String]
    public let instant: Instant?
    public let now: Instant
    public let format: ReceiptFormat
    public let workers: Int
    /// Bytes per block: small enough that a group's receipts (about ten times the input) stay a
    /// few megabytes, large enough that each parallel step has thousands of carts.
    public var blockSize = 1 << 18
    /// Add each receipt's explanations (JSON), or words under each line (text).
    public var explain = false
    /// The longest line (one cart) accepted; a longer one is an error in its place, skipped
    /// without being held in memory.
    public var maxLineLength = 16 << 20

    public init(rules: RuleSet, coupons: [String] = [], instant: Instant?, now: Instant, format: ReceiptFormat, workers: Int? = nil) {
        self.rules = rules
        self.coupons = coupons
        self.instant = instant
        self.now = now
        self.format = format
        self.workers = max(1, workers ?? Machine.processorCount)
    }


    /// Prices the batch held in `bytes`; returns how many carts failed.
    public func run(_ bytes: [UInt8], name: String, to sink: ByteSink) -> Int {
        var offset = 0
        let source = { (buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int in
            let count = min(buffer.count, bytes.count - offset)
            bytes.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: buffer[..<count]).copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + count)])) }
            offset += count
            return count
        }
        return (try? run(reading: source, name: name, to: sink, progress: nil)) ?? 0
    }

    /// Prices the batch read from `fd` as it arrives; returns how many carts failed.
    public func run(fd: FileDescriptor, name: String, to sink: ByteSink, progress: ProgressReporter? = nil) throws(InputError) -> Int {
        try run(reading: { (buffer) throws(SystemError) -> Int in try fd.read(into: buffer) }, name: name, to: sink, progress: progress)
    }

    /// The pipeline: read a group of blocks, price them in parallel, write their results in order.
    /// Blocks, outputs and each worker's reader, encoder and rule cache live for the whole run.
    func run(reading source: (UnsafeMutableRawBufferPointer) throws(SystemError) -> Int, name: String, to sink: ByteSink, progress: ProgressReporter?) throws(InputError) -> Int {
        let active = ActiveRules(rules: rules, at: instant ?? now)
        let group = workers * 2
        let state = PipelineState(workers: (0..<workers).map { _ in Worker(rules: rules) }, slots: group)
        var carry: [UInt8] = []
        var nextLine = 1
        var failures = 0
        var bytesRead = 0
        var carts = 0
        var ended = false
        var skippingLongLine = false
        /// Lines dropped for being too long, reported in their place.
        var longLines: [Int] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: blockSize, alignment: 16)
        defer { chunk.deallocate() }
        while !ended {
            // Read up to two blocks per worker, each ending at a line break.
            var filled = 0
            while filled < group, !ended {
                let count: Int
                do {
                    count = try source(chunk)
                } catch {
                    throw InputError(.unreadable, file: name, "cannot read: \(error)")
                }
                bytesRead += count
                if count == 0 {
                    ended = true
                    if !carry.isEmpty {
                        state.blocks[filled].bytes.removeAll(keepingCapacity: true)
                        state.blocks[filled].bytes.append(contentsOf: carry)
                        state.blocks[filled].firstLine = nextLine
                        filled += 1
                        carry.removeAll()
                    }
                    break
                }
                let received = UnsafeRawBufferPointer(rebasing: chunk[..<count])
                if skippingLongLine {
                    // The rest of a line too long to keep: drop it up to its line break.
                    guard let lineBreak = received.firstIndex(of: UInt8(ascii: "\n")) else { continue }
                    skippingLongLine = false
                    longLines.append(nextLine)
                    nextLine += 1
                    carry.removeAll(keepingCapacity: true)
                    carry.append(contentsOf: received[(lineBreak + 1)...])
                    continue
                }
                guard let lastBreak = received.lastIndex(of: UInt8(ascii: "\n")) else {
                    carry.append(contentsOf: received)
                    if carry.count > maxLineLength {
                        skippingLongLine = true
                        carry.removeAll()
                    }
                    continue
                }
                state.blocks[filled].bytes.removeAll(keepingCapacity: true)
                state.blocks[filled].bytes.append(contentsOf: carry)
                state.blocks[filled].bytes.append(contentsOf: received[...lastBreak])
                carry.removeAll(keepingCapacity: true)
                carry.append(contentsOf: received[(lastBreak + 1)...])
                state.blocks[filled].firstLine = nextLine
                nextLine += state.blocks[filled].bytes.count { $0 == UInt8(ascii: "\n") }
                filled += 1
            }
            if ended, skippingLongLine {
                longLines.append(nextLine)
                skippingLongLine = false
            }
            guard filled > 0 || !longLines.isEmpty else { break }
            let workers = self.workers
            let blockCount = filled
            DispatchQueue.concurrentPerform(iterations: min(workers, blockCount)) { worker in
                for index in stride(from: worker, to: blockCount, by: workers) {
                    state.price(block: index, worker: worker, with: self, active: active, name: name)
                }
            }
            var pendingLong = longLines[...]
            func writeLongLines(before line: Int) {
                while let long = pendingLong.first, long < line {
                    pendingLong.removeFirst()
                    failures += 1
                    carts += 1
                    let message = "the line is longer than \(maxLineLength) bytes"
                    let text = format == .json ? ReceiptEncoder.renderError(line: long, message: message) + "\n" : "\(name):\(long): error: \(message)\n"
                    let bytes = Array(text.utf8)
                    bytes.withUnsafeBufferPointer { sink.write($0) }
                }
            }
            for index in 0..<filled {
                writeLongLines(before: state.blocks[index].firstLine)
                sink.write(state.blocks[index].output.elements)
                failures += state.blocks[index].failures
                carts += state.blocks[index].carts
            }
            writeLongLines(before: ended ? Int.max : nextLine)
            longLines = Array(pendingLong)
            progress?.update(bytes: bytesRead, carts: carts)
        }
        return failures
    }

    /// Prices every non-blank line of one block into its output.
    func price(_ block: inout Block, worker: inout Worker, active: ActiveRules, name: String) {
        block.output.removeAll()
        block.failures = 0
        block.carts = 0
        let firstLine = block.firstLine
        block.bytes.withUnsafeBufferPointer { all in
            var lines = BatchLines.LineWalker(bytes: all)
            while let (offset, range) = lines.next() {
                let line = firstLine + offset - 1
                block.carts += 1
                do throws(InputError) {
                    let cart = try worker.reader.read(UnsafeBufferPointer(rebasing: all[range]), name: name)
                    var explanations: [Explanation]?
                    let priced = Result<Receipt, PricingError> { () throws(PricingError) in
                        guard explain else {
                            return try worker.engine.price(cart, coupons: coupons, at: instant, now: now, active: active, cache: &worker.cache)
                        }
                        let explained = try Explainer(engine: worker.engine).explain(cart, coupons: coupons, at: instant, now: now)
                        explanations = explained.explanations
                        return explained.receipt
                    }
                    guard case .success(let receipt) = priced else {
                        if case .failure(let error) = priced {
                            var failure = InputError(file: name, error.description)
                            failure.cartID = cart.id
                            throw failure
                        }
                        return
                    }
                    switch format {
                    case .json:
                        worker.encoder.encode(receipt, explanations: explanations, into: &block.output)
                        block.output.append(UInt8(ascii: "\n"))
                    case .text:
                        block.output.append(utf8: ReceiptText.renderLine(receipt, label: "\(name):\(line)"))
                        if let explanations { block.output.append(utf8: ReceiptText.explanations(explanations, money: MoneyStyle(currency: receipt.currency))) }
                    }
                } catch {
                    block.failures += 1
                    switch format {
                    case .json:
                        ReceiptEncoder.appendError(line: line, id: error.cartID, message: error.detail, to: &block.output)
                        block.output.append(UInt8(ascii: "\n"))
                    case .text:
                        let id = error.cartID.map { " (id \(ReceiptText.display($0)))" } ?? ""
                        block.output.append(utf8: "\(name):\(line)\(id): error: \(error.detail)\n")
                    }
                }
            }
        }
    }

    /// A block of whole lines, and what pricing it produced.
    struct Block {
        var bytes: [UInt8] = []
        var firstLine = 1
        /// Freed by the pipeline that owns the block.
        var output = RawBuffer<UInt8>(capacity: 1 << 20)
        var failures = 0
        var carts = 0
    }

    /// One worker's tools, kept from block to block.
    struct Worker {
        var reader: CartReader
        var encoder: ReceiptEncoder
        var cache: BestItemRuleCache
        let engine: PricingEngine

        init(rules: RuleSet) {
            reader = CartReader(catalog: rules.catalog)
            encoder = ReceiptEncoder()
            cache = BestItemRuleCache(productCount: rules.catalog.products.count)
            engine = PricingEngine(rules: rules)
        }
    }
}

/// The blocks of one group and the workers, shared with the parallel loop: worker `w` touches only
/// `workers[w]` and the blocks `w`, `w + workers`, … so no two threads share an element.
private final class PipelineState: @unchecked Sendable {
    let workers: UnsafeMutableBufferPointer<BatchPricer.Worker>
    let blocks: UnsafeMutableBufferPointer<BatchPricer.Block>

    init(workers: [BatchPricer.Worker], slots: Int) {
        self.workers = .allocate(capacity: workers.count)
        _ = self.workers.initialize(from: workers)
        blocks = .allocate(capacity: slots)
        for index in 0..<slots { (blocks.baseAddress! + index).initialize(to: BatchPricer.Block()) }
    }

    deinit {
        for index in blocks.indices { blocks[index].output.deallocate() }
        workers.deinitialize()
        workers.deallocate()
        blocks.deinitialize()
        blocks.deallocate()
    }

    func price(block: Int, worker: Int, with pricer: BatchPricer, active: ActiveRules, name: String) {
        pricer.price(&blocks[block], worker: &workers[worker], active: active, name: name)
    }
}
