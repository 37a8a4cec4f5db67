import Dispatch
import InputFiles
import Platform

/// Cuts input holding one item per line into blocks of whole lines, processes the blocks on every
/// core, and hands each block's result over in input order. Two ways in: `run(reading:…)` streams
/// from a pipe (one thread reads, groups of blocks are processed in parallel), `run(mapped:…)` works
/// on a mapped file with every stage parallel (`LineBlockPipeline+Mapped.swift`). Memory holds a
/// few blocks per worker and their results, whatever the size of the input; results and worker
/// state are reused.
struct LineBlockPipeline<Worker, Output> {
    /// Workers asked for, from 1 to ``maximumWorkers``; a run uses no more than its input has blocks.
    var workers: Int
    /// Bytes per block.
    var blockSize: Int
    /// The longest line kept; a longer one is reported in its place (`tooLong`) and skipped without
    /// being held in memory.
    var maxLineLength: Int

    /// The most workers a run uses, whatever is asked (`--threads`): each holds its own reader,
    /// encoder and two blocks, and a run is not faster with more workers than cores.
    static var maximumWorkers: Int { BatchPricer.maximumWorkers }

    init(workers: Int, blockSize: Int, maxLineLength: Int) {
        self.workers = min(max(1, workers), Self.maximumWorkers)
        self.blockSize = blockSize
        self.maxLineLength = maxLineLength
    }

    /// One block's lines and what processing them produced.
    struct Block {
        /// Whole lines, each ending with a line break (but perhaps the input's last).
        var bytes: [UInt8] = []
        /// The physical line number of the first one, from 1.
        var firstLine = 1
        var output: Output
    }

    /// The lines of one block, as `process` sees them.
    struct Lines {
        /// Whole lines, each ending with a line break (but perhaps the input's last).
        var bytes: UnsafeBufferPointer<UInt8>
        /// The physical line number of the first one, from 1.
        var firstLine: Int
    }

    /// Works on one block's lines with a worker's state, into the block's output (which it resets).
    /// A line longer than `maxLineLength` may reach it (the streaming reader drops only those it
    /// cannot hold): it is reported in its place as too long.
    typealias Process = @Sendable (Lines, inout Output, inout Worker) -> Void

    /// What the consumer is told, in input order.
    enum Event {
        case output(UnsafeMutablePointer<Output>)
        /// A line longer than `maxLineLength` that was skipped unread, with its number.
        case tooLong(Int)
        /// The bytes read (or done) so far.
        case read(Int)
    }

    /// Runs the pipeline over what `source` reads (0 at the end). `process` works on one block with
    /// a worker's state (each worker on its own blocks); `consume` sees the events in input order.
    func run(
        reading source: (UnsafeMutableRawBufferPointer) throws(SystemError) -> Int, name: String,
        workers makeWorker: () -> Worker, output makeOutput: () -> Output,
        process: @escaping Process, consume: (Event) -> Void
    ) throws(InputError) {
        let group = workers * 2
        let state = State(
            workers: (0..<workers).map { _ in makeWorker() },
            blocks: (0..<group).map { _ in Block(output: makeOutput()) })
        var carry: [UInt8] = []
        var nextLine = 1
        var bytesRead = 0
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
                var received = UnsafeRawBufferPointer(rebasing: chunk[..<count])
                if skippingLongLine {
                    // The rest of a line too long to keep: drop it up to its line break, then go on
                    // with the lines after it.
                    guard let lineBreak = received.firstIndex(of: UInt8(ascii: "\n")) else { continue }
                    skippingLongLine = false
                    longLines.append(nextLine)
                    nextLine += 1
                    carry.removeAll(keepingCapacity: true)
                    received = UnsafeRawBufferPointer(rebasing: received[(lineBreak + 1)...])
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
                    state.process(block: index, worker: worker, with: process)
                }
            }
            var pendingLong = longLines[...]
            func reportLongLines(before line: Int) {
                while let long = pendingLong.first, long < line {
                    pendingLong.removeFirst()
                    consume(.tooLong(long))
                }
            }
            for index in 0..<filled {
                reportLongLines(before: state.blocks[index].firstLine)
                consume(.output(state.blocks.pointer(index).pointer(to: \.output)!))
            }
            reportLongLines(before: ended ? Int.max : nextLine)
            longLines = Array(pendingLong)
            consume(.read(bytesRead))
        }
    }

    /// The blocks of one group and the workers, shared with the parallel loop: worker `w` touches
    /// only `workers[w]` and the blocks `w`, `w + workers`, … so no two threads share an element, nor
    /// a cache line.
    private final class State: @unchecked Sendable {
        let workers: SeparateLines<Worker>
        let blocks: SeparateLines<Block>

        init(workers: [Worker], blocks: [Block]) {
            self.workers = SeparateLines(workers)
            self.blocks = SeparateLines(blocks)
        }

        deinit {
            workers.deallocate()
            blocks.deallocate()
        }

        func process(block: Int, worker: Int, with body: Process) {
            let firstLine = blocks[block].firstLine
            blocks[block].bytes.withUnsafeBufferPointer {
                body(Lines(bytes: $0, firstLine: firstLine), &blocks[block].output, &workers[worker])
            }
        }
    }
}
