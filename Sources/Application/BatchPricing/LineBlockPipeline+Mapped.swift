import Dispatch
import Platform
import Synchronization

extension LineBlockPipeline {
    /// Runs the pipeline over a file in memory with every stage on every worker: no thread reads or
    /// copies the input for the others. The input is cut at fixed offsets into blocks (a block is the
    /// lines that start in its `blockSize` bytes, found by the worker from the offsets alone). Each
    /// worker takes the next block, counts its line breaks (which numbers the lines of the blocks
    /// after it; a worker waits, briefly, for the counts of the blocks before its own), processes it
    /// into its slot's output, and whichever worker finishes the block that comes next in input order
    /// hands it and those finished after it to `consume`, one worker at a time. At most
    /// `2 × workers` blocks are under way, so memory stays bounded when one block is slow, and the
    /// input is read once, block by block.
    ///
    /// `consume` runs on the workers' threads, never on two at once, in input order.
    func run(
        mapped bytes: UnsafeBufferPointer<UInt8>, workers makeWorker: () -> Worker, output makeOutput: () -> Output,
        process: @escaping Process, consume: (Event) -> Void
    ) {
        guard !bytes.isEmpty else { return }
        let blockCount = (bytes.count + blockSize - 1) / blockSize
        let threads = min(workers, blockCount)
        let slots = min(2 * threads, blockCount)
        let state = MappedRun(
            threads: threads, outputs: (0..<slots).map { _ in makeOutput() }, window: slots, blocks: blockCount)
        let blockSize = self.blockSize
        let input = UncheckedBox(bytes)
        withoutActuallyEscaping(makeWorker) { makeWorker in
            withoutActuallyEscaping(consume) { consume in
                let handOver = UncheckedBox(consume)
                let makeWorker = UncheckedBox(makeWorker)
                DispatchQueue.concurrentPerform(iterations: threads) { thread in
                    // Made by the thread that uses it: its objects and arrays then come from that
                    // thread's memory, not next to another worker's, whose counts and lengths the other
                    // thread writes for every cart.
                    state.workers.initialize(thread, to: makeWorker.value())
                    let bytes = input.value
                    while let block = state.claim() {
                        let range = MappedBlocks.range(of: block, in: bytes, blockSize: blockSize)
                        state.ends[block] = range.upperBound
                        let lines = UnsafeBufferPointer(rebasing: bytes[range])
                        let firstLine = state.number(block, lineBreaks: MappedBlocks.lineBreaks(in: lines))
                        let slot = block % slots
                        process(Lines(bytes: lines, firstLine: firstLine), &state.outputs[slot], &state.workers[thread])
                        state.finished(block) { next in
                            handOver.value(.output(state.outputs.pointer(next % slots)))
                            handOver.value(.read(state.ends[next]))
                        }
                    }
                }
            }
        }
    }

    /// The shared state of a mapped run. Worker `t` touches only `workers[t]`; a slot's output and a
    /// block's end are written by the one worker processing the block, then read by the one handing
    /// it over (after the lock that orders the two). Workers and outputs lie on cache lines of their
    /// own.
    private final class MappedRun: @unchecked Sendable {
        let workers: SeparateLines<Worker>
        let outputs: SeparateLines<Output>
        /// Each block's end offset in the input, for progress and for giving pages back.
        let ends: UnsafeMutableBufferPointer<Int>
        /// One permit per slot: taken before a block is claimed, given back once it is handed over.
        let window: DispatchSemaphore
        let order: Mutex<Order>

        struct Order {
            let blocks: Int
            /// The next block to claim.
            var nextClaim = 0
            /// The next block to hand over.
            var nextHandOver = 0
            /// Finished blocks not yet handed over.
            var finished: Set<Int> = []
            /// Whether a worker is handing blocks over.
            var handingOver = false
            /// Each block's line breaks, once counted (-1 before).
            var lineBreaks: [Int]
            /// Each block's first line, known for the first `numbered` blocks.
            var firstLines: [Int]
            var numbered = 1

            init(blocks: Int) {
                self.blocks = blocks
                lineBreaks = Array(repeating: -1, count: blocks)
                firstLines = Array(repeating: 1, count: blocks)
            }
        }

        /// Workers are made by their threads (``SeparateLines/initialize(_:to:)``).
        init(threads: Int, outputs: [Output], window: Int, blocks: Int) {
            workers = SeparateLines(uninitialized: threads)
            self.outputs = SeparateLines(outputs)
            self.window = DispatchSemaphore(value: window)
            ends = .allocate(capacity: blocks)
            ends.initialize(repeating: 0)
            order = Mutex(Order(blocks: blocks))
        }

        deinit {
            workers.deallocate()
            outputs.deallocate()
            ends.deallocate()
        }

        /// The next block to process, once a slot is free; nil when every block is taken.
        func claim() -> Int? {
            window.wait()
            let block = order.withLock { order -> Int? in
                guard order.nextClaim < order.blocks else { return nil }
                defer { order.nextClaim += 1 }
                return order.nextClaim
            }
            if block == nil { window.signal() }
            return block
        }

        /// Records `block`'s line breaks and returns its first line, once the blocks before it are
        /// counted. They were claimed before it, and counting takes microseconds, so the wait is short.
        func number(_ block: Int, lineBreaks: Int) -> Int {
            var known = order.withLock { order -> Int? in
                order.lineBreaks[block] = lineBreaks
                while order.numbered < order.blocks, order.lineBreaks[order.numbered - 1] >= 0 {
                    order.firstLines[order.numbered] =
                        order.firstLines[order.numbered - 1]
                        + order.lineBreaks[order.numbered - 1]
                    order.numbered += 1
                }
                return order.numbered > block ? order.firstLines[block] : nil
            }
            while known == nil {
                Machine.yield()
                known = order.withLock { $0.numbered > block ? $0.firstLines[block] : nil }
            }
            return known!
        }

        /// Records that `block` is processed. If no worker is handing over and it is the next in input
        /// order, this worker hands it and every finished one after it to `handOver`, outside the
        /// lock, freeing their slots.
        func finished(_ block: Int, handOver: (Int) -> Void) {
            var (first, end) = order.withLock { order -> (Int, Int) in
                order.finished.insert(block)
                return takeRun(&order)
            }
            while first < end {
                for next in first..<end {
                    handOver(next)
                    window.signal()
                }
                (first, end) = order.withLock { order -> (Int, Int) in
                    order.handingOver = false
                    return takeRun(&order)
                }
            }
        }

        /// The run of finished blocks starting at the next to hand over, claimed for handing over;
        /// empty when another worker is handing over or the next block is not finished.
        private func takeRun(_ order: inout Order) -> (Int, Int) {
            guard !order.handingOver else { return (0, 0) }
            let first = order.nextHandOver
            var end = first
            while order.finished.remove(end) != nil { end += 1 }
            guard end > first else { return (0, 0) }
            order.nextHandOver = end
            order.handingOver = true
            return (first, end)
        }
    }
}

/// Where the blocks of a mapped input lie and where their lines are numbered from.
enum MappedBlocks {
    /// The bytes of block `index`: the lines that start in `index * blockSize ..< (index + 1) * blockSize`.
    /// Finding its start looks at its own bytes only, finding its end reads its last line to the
    /// end, so a line spanning many blocks is read once, not once per block.
    static func range(of index: Int, in bytes: UnsafeBufferPointer<UInt8>, blockSize: Int) -> Range<Int> {
        let from = index * blockSize
        let to = min(from + blockSize, bytes.count)
        guard let start = lineStart(from: from, before: to, in: bytes) else { return to..<to }
        return start..<(lineStart(from: to, before: bytes.count, in: bytes) ?? bytes.count)
    }

    /// The first offset in `from ..< before` where a line starts (0, or just after a line break).
    static func lineStart(from: Int, before: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard from < before else { return nil }
        guard from > 0 else { return 0 }
        let base = bytes.baseAddress!
        guard let lineBreak = findByte(UInt8(ascii: "\n"), from: base + from - 1, to: base + before - 1) else {
            return nil
        }
        return lineBreak - base + 1
    }

    /// How many line breaks `bytes` holds, eight bytes at a time.
    static func lineBreaks(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let lineBreaks = ones &* 0x0A
        var count = 0
        var index = 0
        while index + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ lineBreaks
            // A byte of `word` is zero where a line break was: exact, since no carry crosses bytes.
            let zeros = ~(((word & ~highs) &+ ~highs) | word) & highs
            count += zeros.nonzeroBitCount
            index += 8
        }
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") { count += 1 }
            index += 1
        }
        return count
    }
}

/// Hands a value the compiler cannot prove safe to share to parallel code that uses it safely.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
