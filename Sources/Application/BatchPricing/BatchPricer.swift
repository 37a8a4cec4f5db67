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
    /// Bytes per block: small enough that the receipts of the blocks under way (JSON receipts run to
    /// 10–40 times their cart) stay a few megabytes per worker, large enough that a block holds
    /// hundreds of carts, so that handing blocks between threads costs nothing measurable.
    public var blockSize = 1 << 16
    /// Add each receipt's explanations (JSON), or words under each line (text).
    public var explain = false
    /// How often limited promotions were redeemed (`price --store`, docs/store.md): read once before
    /// the batch, the same for every cart. Nil: no limit binds.
    public var ledger: RedemptionCounts?
    /// The longest line (one cart) accepted; a longer one is an error in its place, skipped
    /// without being held in memory.
    public var maxLineLength = InputLimits.longestLine

    public init(
        rules: RuleSet, coupons: [String] = [], instant: Instant?, now: Instant, format: ReceiptFormat,
        workers: Int? = nil
    ) {
        self.rules = rules
        self.coupons = coupons
        self.instant = instant
        self.now = now
        self.format = format
        self.workers = min(max(1, workers ?? Machine.processorCount), BatchPricer.maximumWorkers)
    }

    /// The most threads a batch uses, whatever `--threads` asks: 256 (and no more than the input
    /// has blocks of ``blockSize`` bytes).
    public static let maximumWorkers = 256

    /// Prices the batch held in `bytes`; returns how many carts failed.
    public func run(_ bytes: [UInt8], name: String, to sink: ByteSink) -> Int {
        bytes.withUnsafeBufferPointer { run(mapped: $0, name: name, to: sink) }
    }

    /// Prices the batch held in `bytes` as if it arrived through a pipe, a block at a time.
    func runStreaming(_ bytes: [UInt8], name: String, to sink: ByteSink) -> Int {
        var offset = 0
        let source = { (buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int in
            let count = min(buffer.count, bytes.count - offset)
            bytes.withUnsafeBytes {
                UnsafeMutableRawBufferPointer(rebasing: buffer[..<count]).copyMemory(
                    from: UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + count)]))
            }
            offset += count
            return count
        }
        return (try? run(reading: source, name: name, to: sink, progress: nil))?.failures ?? 0
    }

    /// Prices the batch read from `fd`; returns how many carts failed. A regular file (`size` known)
    /// is mapped and every stage runs on every worker; anything else is priced as it arrives.
    public func run(
        fd: FileDescriptor, size: Int? = nil, name: String, to sink: ByteSink, progress: ProgressReporter? = nil
    ) throws(InputError) -> Int {
        try outcome(fd: fd, size: size, name: name, to: sink, progress: progress).failures
    }

    /// Prices the batch read from `fd`, as ``run(fd:size:name:to:progress:)``; returns how many carts
    /// there were, how many failed, and the first failure.
    public func outcome(
        fd: FileDescriptor, size: Int? = nil, name: String, to sink: ByteSink, progress: ProgressReporter? = nil
    ) throws(InputError) -> Outcome {
        if let size, size > 0, let mapping = MappedFile(fd, size: size, name: name) {
            defer { mapping.unmap() }
            return outcome(mapped: mapping.bytes, name: name, to: sink, progress: progress, done: mapping.release)
        }
        return try run(
            reading: { (buffer) throws(SystemError) -> Int in try fd.read(into: buffer) }, name: name, to: sink,
            progress: progress)
    }

    /// Prices the batch held in memory with every stage on every worker. `done` is told how many
    /// bytes from the start are priced and written, from time to time (a mapping may drop them).
    public func run(
        mapped bytes: UnsafeBufferPointer<UInt8>, name: String, to sink: ByteSink,
        progress: ProgressReporter? = nil, done: (Int) -> Void = { _ in }
    ) -> Int {
        outcome(mapped: bytes, name: name, to: sink, progress: progress, done: done).failures
    }

    func outcome(
        mapped bytes: UnsafeBufferPointer<UInt8>, name: String, to sink: ByteSink, progress: ProgressReporter?,
        done: (Int) -> Void
    ) -> Outcome {
        let active = ActiveRules(rules: rules, at: instant ?? now)
        let rules = self.rules
        let ledger = self.ledger
        var tally = Outcome()
        pipeline.run(
            mapped: bytes, workers: { Worker(rules: rules, active: active, ledger: ledger) }, output: { Output() },
            process: { [self] lines, output, worker in
                price(lines, into: &output, worker: &worker, name: name)
            },
            consume: { event in
                consume(event, name: name, sink: sink, tally: &tally, progress: progress)
                if case .read(let offset) = event { done(offset) }
            })
        return tally
    }

    /// The streaming pipeline: read a group of blocks, price them in parallel, write their results
    /// in order. Blocks, outputs and each worker's reader, encoder and rule cache live for the whole run.
    func run(
        reading source: (UnsafeMutableRawBufferPointer) throws(SystemError) -> Int, name: String, to sink: ByteSink,
        progress: ProgressReporter?
    ) throws(InputError) -> Outcome {
        let active = ActiveRules(rules: rules, at: instant ?? now)
        let rules = self.rules
        let ledger = self.ledger
        var tally = Outcome()
        try pipeline.run(
            reading: source, name: name, workers: { Worker(rules: rules, active: active, ledger: ledger) },
            output: { Output() },
            process: { [self] lines, output, worker in
                price(lines, into: &output, worker: &worker, name: name)
            },
            consume: { event in consume(event, name: name, sink: sink, tally: &tally, progress: progress) })
        return tally
    }

    var pipeline: LineBlockPipeline<Worker, Output> {
        LineBlockPipeline(workers: workers, blockSize: blockSize, maxLineLength: maxLineLength)
    }

    /// Carts priced and failed so far, and the first failure.
    public struct Outcome: Sendable {
        public var carts = 0
        public var failures = 0
        /// The first cart that failed: its line, and why (without the file's name).
        public var firstFailure: (line: Int, message: String)?
    }

    /// Writes one event's results, in input order.
    func consume(
        _ event: LineBlockPipeline<Worker, Output>.Event, name: String, sink: ByteSink, tally: inout Outcome,
        progress: ProgressReporter?
    ) {
        switch event {
        case .output(let output):
            sink.write(output.pointee.buffer.bytes.elements)
            tally.failures += output.pointee.failures
            tally.carts += output.pointee.carts
            if tally.firstFailure == nil { tally.firstFailure = output.pointee.firstFailure }
        case .tooLong(let line):
            tally.failures += 1
            tally.carts += 1
            if tally.firstFailure == nil { tally.firstFailure = (line, tooLongMessage) }
            let bytes = Array(renderError(line: line, id: nil, message: tooLongMessage, name: name).utf8)
            bytes.withUnsafeBufferPointer { sink.write($0) }
        case .read(let bytes):
            progress?.update(bytes: bytes, carts: tally.carts)
        }
    }

    var tooLongMessage: String { InputLimits.tooLongMessage(maxLineLength) }

    /// The entry of a cart that cannot be priced, with its line break.
    func renderError(line: Int, id: CartID?, message: String, name: String) -> String {
        switch format {
        case .json: ReceiptEncoder.renderError(line: line, id: id, message: message) + "\n"
        case .text:
            "\(name.withoutControlCharacters):\(line)\(id.map { " (id \(ReceiptText.display($0)))" } ?? ""): error: \(message.withoutControlCharacters)\n"
        }
    }

    /// Prices every non-blank line of one block into its output.
    func price(
        _ block: LineBlockPipeline<Worker, Output>.Lines, into result: inout Output, worker: inout Worker,
        name: String
    ) {
        let output = result.buffer
        output.bytes.removeAll()
        result.failures = 0
        result.carts = 0
        result.firstFailure = nil
        let firstLine = block.firstLine
        let all = block.bytes
        // The file's name as text output shows it, worked out once per block rather than per cart.
        let shownName = format == .text ? name.withoutControlCharacters : name
        var lines = BatchLines.LineWalker(bytes: all, maxLength: maxLineLength)
        while let (offset, range) = lines.next() {
            let line = firstLine + offset - 1
            result.carts += 1
            do throws(InputError) {
                guard range.count <= maxLineLength else { throw InputError(file: name, tooLongMessage) }
                let cart = try worker.reader.read(UnsafeBufferPointer(rebasing: all[range]), name: name, line: line)
                var explanations: [Explanation]?
                let priced = Result<Receipt, PricingError> { () throws(PricingError) in
                    guard explain else {
                        return try worker.pricer.price(
                            cart, coupons: coupons, at: instant, now: now, storage: &worker.receiptStorage)
                    }
                    let explained = try Explainer(engine: worker.pricer.engine).explain(
                        cart, coupons: coupons, at: instant, now: now)
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
                    worker.encoder.encode(receipt, explanations: explanations, into: &output.bytes)
                    output.bytes.append(UInt8(ascii: "\n"))
                case .text:
                    output.bytes.append(utf8: ReceiptText.renderLine(receipt, label: "\(shownName):\(line)"))
                    if let explanations {
                        output.bytes.append(
                            utf8: ReceiptText.explanations(
                                explanations, money: MoneyStyle(currency: receipt.currency)))
                    }
                }
                // The next receipt's lines reuse this one's storage (the next cart's reuse this
                // cart's by themselves once it is gone).
                worker.receiptStorage.recycle(receipt)
            } catch {
                result.failures += 1
                if result.firstFailure == nil { result.firstFailure = (line, error.detail) }
                switch format {
                case .json:
                    ReceiptEncoder.appendError(
                        line: line, id: error.cartID, message: error.detail, to: &output.bytes)
                    output.bytes.append(UInt8(ascii: "\n"))
                case .text:
                    output.bytes.append(
                        utf8: renderError(line: line, id: error.cartID, message: error.detail, name: name))
                }
            }
        }
    }

    /// What pricing a block produced: its results' bytes, carts and failures.
    struct Output {
        let buffer = OutputBuffer()
        var failures = 0
        var carts = 0
        var firstFailure: (line: Int, message: String)?
    }

    /// A block's output bytes, reused from group to group and freed with it. The buffer's length,
    /// written for every cart, has cache lines of its own: the outputs are made one after another,
    /// and side by side in memory two threads filling two of them would write the same line.
    final class OutputBuffer {
        private var before = CacheLinePadding()
        @exclusivity(unchecked) var bytes = RawBuffer<UInt8>(capacity: 1 << 20)
        private var after = CacheLinePadding()
        deinit { bytes.deallocate() }
    }

    /// One worker's tools, kept from block to block.
    struct Worker {
        var reader: CartReader
        var encoder: ReceiptEncoder
        /// The rules active at the batch's instant, and this worker's memory of best item rules.
        var pricer: ActivePricer
        /// The last receipt's arrays, which the next receipt takes.
        var receiptStorage = ReceiptStorage()

        init(rules: RuleSet, active: ActiveRules, ledger: RedemptionCounts? = nil) {
            reader = CartReader(catalog: rules.catalog)
            encoder = ReceiptEncoder()
            var engine = PricingEngine(rules: rules)
            engine.ledger = ledger
            pricer = ActivePricer(engine: engine, active: active)
        }
    }
}
