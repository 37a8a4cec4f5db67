/// The ASCII codes of a catalog, upper-cased, in a trie: the codes within a few edits of a question
/// are found by walking only the branches whose prefixes stay within those edits of some prefix
/// of the question (the rows of the edit-distance table shared along each branch), not by
/// comparing the question with every code.
struct CodeTrie: Sendable {
    /// Per node: its children `edges[childStart[node]..<childStart[node + 1]]` (byte, node), and the
    /// first catalog position of a code that ends there (-1: none).
    private let childStart: [Int32]
    private let edgeBytes: [UInt8]
    private let edgeNodes: [Int32]
    private let terminal: [Int32]
    /// The longest code.
    let depth: Int

    /// The trie of `codes` (upper-cased ASCII bytes, with their catalog positions, ascending).
    init(_ codes: [(bytes: [UInt8], position: Int)]) {
        // Built with sibling lists, then laid out with each node's children together.
        var firstChild: [Int32] = [-1]
        var nextSibling: [Int32] = [-1]
        var byte: [UInt8] = [0]
        var terminal: [Int32] = [-1]
        var depth = 0
        for (bytes, position) in codes {
            var node: Int32 = 0
            for b in bytes {
                var child = firstChild[Int(node)]
                var last: Int32 = -1
                while child >= 0, byte[Int(child)] != b {
                    last = child
                    child = nextSibling[Int(child)]
                }
                if child < 0 {
                    child = Int32(byte.count)
                    firstChild.append(-1)
                    nextSibling.append(-1)
                    byte.append(b)
                    terminal.append(-1)
                    if last < 0 { firstChild[Int(node)] = child } else { nextSibling[Int(last)] = child }
                }
                node = child
            }
            if terminal[Int(node)] < 0 { terminal[Int(node)] = Int32(position) }
            depth = max(depth, bytes.count)
        }
        var childStart: [Int32] = [0]
        var edgeBytes: [UInt8] = []
        var edgeNodes: [Int32] = []
        for node in byte.indices {
            var child = firstChild[node]
            while child >= 0 {
                edgeBytes.append(byte[Int(child)])
                edgeNodes.append(child)
                child = nextSibling[Int(child)]
            }
            childStart.append(Int32(edgeBytes.count))
        }
        self.childStart = childStart
        self.edgeBytes = edgeBytes
        self.edgeNodes = edgeNodes
        self.terminal = terminal
        self.depth = depth
    }

    /// The code nearest to `query` (upper-cased ASCII) within `limit` edits, the earliest in the
    /// catalog on a tie, as (position, distance); nil when none is that near. `rows` holds at least
    /// (``depth`` + 1) × (query.count + 1) values; `stack`, ``depth`` + 1.
    func nearest(
        to query: UnsafeBufferPointer<UInt8>, limit: Int, rows: UnsafeMutablePointer<Int32>,
        stack: UnsafeMutablePointer<(node: Int32, edge: Int32)>
    ) -> (position: Int, distance: Int)? {
        let n = query.count
        let width = n + 1
        let far = Int32(limit + 1)
        for j in 0...n { rows[j] = Int32(min(j, limit + 1)) }
        var best: (position: Int, distance: Int)?
        // Depth-first: stack[d] is the node at depth d and the next of its edges to follow.
        stack[0] = (0, childStart[0])
        var depth = 0
        childStart.withUnsafeBufferPointer { childStart in
            edgeBytes.withUnsafeBufferPointer { edgeBytes in
                edgeNodes.withUnsafeBufferPointer { edgeNodes in
                    terminal.withUnsafeBufferPointer { terminal in
                        while depth >= 0 {
                            let (node, edge) = stack[depth]
                            guard edge < childStart[Int(node) + 1] else {
                                depth -= 1
                                continue
                            }
                            stack[depth].edge = edge + 1
                            let x = edgeBytes[Int(edge)]
                            let child = edgeNodes[Int(edge)]
                            // The row of the child's prefix (length i = depth + 1) against the query's prefixes.
                            let i = depth + 1
                            let previous = rows + depth * width
                            let current = previous + width
                            let low = max(1, i - limit)
                            let high = min(n, i + limit)
                            var rowBest = far
                            if low <= high || low == 1 {
                                current[low - 1] = low == 1 ? Int32(min(i, limit + 1)) : far
                                rowBest = current[low - 1]
                            }
                            if low <= high {
                                // The byte before this one on the branch, for transpositions.
                                let before: UInt8 = i > 1 ? edgeBytes[Int(stack[depth - 1].edge) - 1] : 0
                                for j in low...high {
                                    let y = query[j - 1]
                                    var value = min(
                                        previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x == y ? 0 : 1))
                                    if i > 1, j > 1, x == query[j - 2], before == y {
                                        value = min(value, rows[(depth - 1) * width + j - 2] + 1)
                                    }
                                    value = min(value, far)
                                    current[j] = value
                                    rowBest = min(rowBest, value)
                                }
                                if high < n { current[high + 1] = far }
                            } else if low > n {
                                // The prefix is already longer than the query by more than the limit.
                                rowBest = far
                            }
                            guard rowBest < far else { continue }
                            let position = terminal[Int(child)]
                            if position >= 0, i >= n - limit, i <= n + limit {
                                let distance = Int(current[n])
                                if distance <= limit,
                                    best.map({ (distance, Int(position)) < ($0.distance, $0.position) }) ?? true
                                {
                                    best = (Int(position), distance)
                                }
                            }
                            if i < self.depth {
                                depth = i
                                stack[depth] = (child, childStart[Int(child)])
                            }
                        }
                    }
                }
            }
        }
        return best
    }
}
