import Dispatch
import InputFiles
import Platform

/// Reads input holding one item per line in blocks of whole lines, processes groups of blocks on
/// every core, and hands each block's result over in input order. Memory holds one group of blocks
/// and their results, whatever the size of the input; results and worker state are reused from
/// group to group.
struct LineBlockPipeline<Worker, Output> {
    var workers: Int
    /// Bytes per block.
    var blockSize: Int
    /// The longest line kept; a longer one is reported in its place (`tooLong`) and skipped without
    /// being held in memory.
    var maxLineLength: Int

    /// One block's lines and what processing them produced.
    struct Block {
        /// Whole lines, each ending with a line break (but perhaps the input's last).
        var bytes: [UInt8] = []
        /// The physical line number of the first one, from 1.
        var firstLine = 1
        var output: Output
    }

    /// What the consumer is told, in input order.
    enum Event {
        case block(UnsafeMutablePointer<Block>)
        /// A line longer than `maxLineLength`, with its number.
        case tooLong(Int)
        /// After each group: the bytes read so far.
        case read(Int)
    }

    /// Runs the pipeline over what `source` reads (0 at the end). `process` works on one block with
    /// a worker's state (each worker on its own blocks); `consume` sees the events in input order.
    func run(
        reading source: (UnsafeMutableRawBufferPointer) throws(SystemError) -> Int, name: String,
        workers makeWorker: () -> Worker, output makeOutput: () -> Output,
        process: @escaping @Sendable (inout Block, inout Worker) -> Void, consume: (Event) -> Void
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
                consume(.block(state.blocks.baseAddress! + index))
            }
            reportLongLines(before: ended ? Int.max : nextLine)
            longLines = Array(pendingLong)
            consume(.read(bytesRead))
        }
    }

    /// The blocks of one group and the workers, shared with the parallel loop: worker `w` touches
    /// only `workers[w]` and the blocks `w`, `w + workers`, … so no two threads share an element.
    private final class State: @unchecked Sendable {
        let workers: UnsafeMutableBufferPointer<Worker>
        let blocks: UnsafeMutableBufferPointer<Block>

        init(workers: [Worker], blocks: [Block]) {
            self.workers = .allocate(capacity: workers.count)
            _ = self.workers.initialize(from: workers)
            self.blocks = .allocate(capacity: blocks.count)
            _ = self.blocks.initialize(from: blocks)
        }

        deinit {
            workers.deinitialize()
            workers.deallocate()
            blocks.deinitialize()
            blocks.deallocate()
        }

        func process(block: Int, worker: Int, with body: (inout Block, inout Worker) -> Void) {
            body(&blocks[block], &workers[worker])
        }
    }
}
