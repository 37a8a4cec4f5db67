import Dispatch
import PlistReader
import Pricing
import Suggestions

/// Decodes promotions on a second thread while the reader parses the rest of the file. The reader
/// hands over the values it read, in batches and in file order; one consumer decodes them in that
/// order, so ids, entry numbers and diagnostics are exactly what decoding inline gives.
final class DecodingPipeline: @unchecked Sendable {
    /// What the consumer thread owns until `finish()` returns.
    struct Output {
        var decoder: PromotionDecoder
        var promotions: [Promotion] = []
        /// With `chunked`, full runs of promotions before `promotions`, in file order: results to
        /// be merged into others' can then be handed over (and freed) a run at a time.
        var chunks: [[Promotion]] = []
        var chunked = false
        static let chunkSize = 4_096
        var entries: [PromotionEntry] = []
        /// Per promotion (across `chunks` and `promotions`), the position of its entry in `entries`.
        var promotionEntries: [Int32] = []
        var diagnostics: [Diagnostic] = []

        /// The smallest promotion a file can hold takes about this many bytes, so a file of `n` bytes
        /// holds at most `n / 160` of them.
        static let smallestPromotionBytes = 160

        /// Results for a file of `expectedBytes` (0: unknown), with room for as many promotions as it
        /// can hold: growing by doubling would hold the old and the new storage at once, while
        /// room reserved and never filled is never touched, so it costs no memory.
        init(decoder: PromotionDecoder, expectedBytes: Int = 0) {
            self.decoder = decoder
            self.decoder.reserveIDs(forFileBytes: expectedBytes)
            let most = min(expectedBytes / Self.smallestPromotionBytes, 1 << 22)
            promotions.reserveCapacity(most)
            entries.reserveCapacity(most)
            promotionEntries.reserveCapacity(most)
        }
    }

    private struct Batch {
        var values = PlistValueBatch(
            reservingElements: 32 * DecodingPipeline.batchSize, textBytes: 320 * DecodingPipeline.batchSize)
        var currency: Currency
    }

    private static let batchSize = 512
    private let queue = BoundedQueue<Batch?>(capacity: 4)
    private let done = DispatchSemaphore(value: 0)
    private var pending: Batch
    private var output: Output

    init(decoder: PromotionDecoder, expectedBytes: Int = 0) {
        output = Output(decoder: decoder, expectedBytes: expectedBytes)
        pending = Batch(currency: decoder.context.currency)
        DispatchQueue.global().async { [self] in
            while let batch = queue.take() {
                output.decoder.context.currency = batch.currency
                for value in batch.values.values { output.decode(value) }
            }
            done.signal()
        }
    }

    /// Queues a copy of a promotion read in `currency`: the reader keeps its own storage. Called
    /// by the reading thread only.
    func submit(_ value: PlistValue, currency: Currency) {
        if pending.currency != currency, !pending.values.isEmpty { flush() }
        pending.currency = currency
        pending.values.append(value)
        if pending.values.count >= Self.batchSize { flush() }
    }

    private func flush() {
        queue.put(pending)
        pending = Batch(currency: pending.currency)
    }

    /// Ends the decoding thread without waiting for it, whatever it decoded dropped: for a reading
    /// given up. The thread lets the pipeline go once it has taken the end.
    func abandon() {
        queue.put(nil)
    }

    /// Waits for every queued promotion to be decoded, and returns what decoding produced.
    func finish() -> Output {
        if !pending.values.isEmpty { flush() }
        queue.put(nil)
        done.wait()
        return output
    }
}

extension DecodingPipeline.Output {
    /// Adds "did you mean" to every unknown code reported, all found in one pass over the catalog.
    mutating func suggest(parts: PartRunner) {
        guard let catalog = decoder.context.productCatalog, !decoder.unanswered.isEmpty else { return }
        let unanswered = decoder.unanswered
        let answers = CodeSuggestions.suggestions(
            for: unanswered.map(\.code), codes: catalog.products.map(\.code)
        ) { count, body in parts.run(count, body) }
        // Every unknown code's message, with its answer if any: tens of thousands of them are
        // written in parts of at most 1,024 (16 parts beyond 16,384), each part its own diagnostics.
        let count = unanswered.count
        let partCount = min(16, (count + 1_023) / 1_024)
        diagnostics.withUnsafeMutableBufferPointer { buffer in
            let messages = PartBuffer(buffer)
            parts.run(partCount) { part in
                for k in PartRunner.share(part, of: count, in: partCount) {
                    let (index, code) = unanswered[k]
                    messages.buffer[index].message = Diagnostic.unknownCodeMessage(code, suggestion: answers[k])
                }
            }
        }
    }

    /// Decodes one element of the promotions array into the results.
    mutating func decode(_ value: PlistValue) {
        let entry = entries.count
        guard value.kind == .dict else {
            var diagnostic = Diagnostic.plistStructure(
                "each promotion must be a <dict>, not a <\(value.kind)>", at: value.location)
            diagnostic.entry = entry
            diagnostics.append(diagnostic)
            entries.append(PromotionEntry(id: nil, location: value.location))
            return
        }
        let (promotion, id) = decoder.decode(value, entry: entry, into: &diagnostics)
        entries.append(PromotionEntry(id: id, location: value.location))
        guard let promotion else { return }
        if chunked, promotions.count == Self.chunkSize {
            chunks.append(promotions)
            promotions = []
            promotions.reserveCapacity(Self.chunkSize)
        }
        promotions.append(promotion)
        promotionEntries.append(Int32(entry))
    }
}

/// A fixed-capacity FIFO between one producer and one consumer. An element belongs to the
/// consumer once put: the producer does not touch it again.
final class BoundedQueue<Element>: @unchecked Sendable {
    private var items: [Element] = []
    private let lock = DispatchSemaphore(value: 1)
    private let free: DispatchSemaphore
    private let filled = DispatchSemaphore(value: 0)

    init(capacity: Int) {
        free = DispatchSemaphore(value: capacity)
    }

    func put(_ element: Element) {
        free.wait()
        lock.wait()
        items.append(element)
        lock.signal()
        filled.signal()
    }

    func take() -> Element {
        filled.wait()
        lock.wait()
        let element = items.removeFirst()
        lock.signal()
        free.signal()
        return element
    }
}
