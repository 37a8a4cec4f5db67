import InputFiles
import Platform
import PlistReader
import Pricing
import PromotionDiff

/// One run of `checkout diff`: every cart of the given files priced under the old and the new
/// promotions, tallied as it streams by (docs/diff.md). Batches go through the line-block pipeline on
/// every core; memory is bounded by the blocks, not by the corpus.
public struct DiffRun {
    public var carts: [String]
    /// Every cart file is a batch (one cart per line); otherwise only `*.ndjson`/`*.jsonl` files are.
    public var batch = false
    /// Overrides each cart's own instant.
    public var instant: Instant?
    /// Read once, for both files.
    public var now: Instant
    /// Bounds on the carts, batches and catalog.
    public var limits: InputLimits = .default
    /// Bounds on the two promotions files.
    public var plistLimits: PlistLimits = .default
    public var workers = Machine.processorCount
    public var blockSize = 1 << 18

    public init(carts: [String], now: Instant) {
        self.carts = carts
        self.now = now
    }

    /// Why a diff stopped before reporting.
    public enum Failure: Error {
        case rules(PricingRulesError)
        /// A cart file that cannot be opened or read.
        case unreadable(InputError)
    }

    /// Prices every cart under `old` and `new` (both read with `catalog`) and reports.
    public func run(catalog: RulesSource, old: RulesSource, new: RulesSource, progress: ProgressReporter? = nil)
        throws(Failure) -> DiffReport
    {
        let products: Catalog
        let before: PricingRules
        let after: PricingRules
        do {
            products = try PricingRules.loadCatalog(catalog, limit: limits.maxFileSize)
            before = try PricingRules.load(promotions: old, for: products, limits: plistLimits)
            after = try PricingRules.load(promotions: new, for: products, limits: plistLimits)
        } catch {
            throw .rules(error)
        }
        var tally = DiffTally()
        var priced = 0
        let names = carts.map(FileBytes.displayName)
        let pricer = Pricer(old: before.ruleSet, new: after.ruleSet, instant: instant, now: now)
        for (file, path) in carts.enumerated() {
            do {
                if batch || BatchLines.isBatchName(path) {
                    let (fd, size) = try FileBytes.open(path)
                    defer { if path != "-" { fd.close() } }
                    try tallyBatch(fd, size: size, file: file, name: names[file], pricer: pricer, into: &tally) {
                        carts, bytes in
                        progress?.update(bytes: bytes, carts: priced + carts)
                    }
                } else {
                    let bytes = try FileBytes.read(path, limit: limits.maxFileSize)
                    var worker = pricer.worker(halves: .onTwoCores)
                    bytes.withUnsafeBufferPointer {
                        pricer.tally(
                            $0, at: CartPlace(file: file, line: 1), name: names[file], worker: &worker, into: &tally)
                    }
                }
            } catch {
                if error.kind == .unreadable { throw .unreadable(error) }
                tally.addUnreadable(CartPlace(file: file, line: 1), error: error.detail)
            }
            priced = tally.carts
        }
        progress?.finish()
        return DiffReport(
            tally, files: names, old: before.promotions.promotions, new: after.promotions.promotions,
            currency: products.currency)
    }

    /// A batch file, block by block on every core, the blocks' tallies merged in order. A regular
    /// file is mapped and every stage runs on every worker; anything else is tallied as it arrives.
    func tallyBatch(
        _ fd: FileDescriptor, size: Int?, file: Int, name: String, pricer: Pricer, into tally: inout DiffTally,
        progress: (Int, Int) -> Void
    ) throws(InputError) {
        let pipeline = LineBlockPipeline<Pricer.Worker, DiffTally>(
            workers: workers, blockSize: blockSize, maxLineLength: limits.maxLineLength)
        let start = tally.carts
        let tooLong = InputLimits.tooLongMessage(pipeline.maxLineLength)
        let process: LineBlockPipeline<Pricer.Worker, DiffTally>.Process = { block, output, worker in
            output = DiffTally()
            var lines = BatchLines.LineWalker(bytes: block.bytes, maxLength: pipeline.maxLineLength)
            while let (offset, range) = lines.next() {
                let place = CartPlace(file: file, line: block.firstLine + offset - 1)
                guard range.count <= pipeline.maxLineLength else {
                    output.addUnreadable(place, error: tooLong)
                    continue
                }
                pricer.tally(
                    UnsafeBufferPointer(rebasing: block.bytes[range]), at: place, name: name, worker: &worker,
                    into: &output)
            }
        }
        func consume(_ event: LineBlockPipeline<Pricer.Worker, DiffTally>.Event) {
            switch event {
            case .output(let output): tally.merge(output.pointee)
            case .tooLong(let line): tally.addUnreadable(CartPlace(file: file, line: line), error: tooLong)
            case .read(let bytes): progress(tally.carts - start, bytes)
            }
        }
        if let size, size > 0, let mapping = MappedFile(fd, size: size, name: name) {
            defer { mapping.unmap() }
            pipeline.run(
                mapped: mapping.bytes, workers: { pricer.worker() }, output: { DiffTally() }, process: process,
                consume: { event in
                    consume(event)
                    if case .read(let offset) = event { mapping.release(before: offset) }
                })
        } else {
            try pipeline.run(
                reading: { (buffer) throws(SystemError) -> Int in try fd.read(into: buffer) }, name: name,
                workers: { pricer.worker() }, output: { DiffTally() }, process: process, consume: consume)
        }
    }

    /// Prices carts under both rule sets, each at the run's instant through an index of its active rules.
    struct Pricer: Sendable {
        let old: PricingEngine
        let new: PricingEngine
        let oldActive: ActiveRules
        let newActive: ActiveRules
        let instant: Instant?
        let now: Instant

        init(old: RuleSet, new: RuleSet, instant: Instant?, now: Instant) {
            self.old = PricingEngine(rules: old)
            self.new = PricingEngine(rules: new)
            oldActive = ActiveRules(rules: old, at: instant ?? now)
            newActive = ActiveRules(rules: new, at: instant ?? now)
            self.instant = instant
            self.now = now
        }

        struct Worker {
            var reader: CartReader
            var old: ActivePricer
            var new: ActivePricer
            /// The last receipts' arrays, which the next cart's receipts take on each side.
            var oldStorage = ReceiptStorage()
            var newStorage = ReceiptStorage()
        }

        /// A worker's tools; `halves` for a cart file read alone (a batch's workers have every core).
        func worker(halves: CartHalves = .never) -> Worker {
            Worker(
                reader: CartReader(catalog: old.rules.catalog, halves: halves),
                old: ActivePricer(engine: old, active: oldActive),
                new: ActivePricer(engine: new, active: newActive))
        }

        /// One cart's bytes: read once, priced under both files, tallied.
        func tally(
            _ bytes: UnsafeBufferPointer<UInt8>, at place: CartPlace, name: String, worker: inout Worker,
            into tally: inout DiffTally
        ) {
            let cart: Cart
            do {
                cart = try worker.reader.read(bytes, name: name, line: place.line)
            } catch {
                tally.addUnreadable(place, error: error.detail)
                return
            }
            let before = Result<Receipt, PricingError> { () throws(PricingError) in
                try worker.old.price(cart, at: instant, now: now, storage: &worker.oldStorage)
            }.mapError { DiffError($0.description) }
            let after = Result<Receipt, PricingError> { () throws(PricingError) in
                try worker.new.price(cart, at: instant, now: now, storage: &worker.newStorage)
            }.mapError { DiffError($0.description) }
            tally.add(place, before: before, after: after)
            // The tally keeps no receipt: the next cart's take their arrays.
            if case .success(let receipt) = consume before { worker.oldStorage.recycle(receipt) }
            if case .success(let receipt) = consume after { worker.newStorage.recycle(receipt) }
        }
    }
}
