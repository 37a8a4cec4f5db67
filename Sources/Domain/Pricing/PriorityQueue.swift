/// How elements of a ``PriorityQueue`` rank: `ranksAbove(a, b)` when `a` comes out before `b`.
protocol HeapOrdered {
    static func ranksAbove(_ a: Self, _ b: Self) -> Bool
}

/// A binary max-heap: the element that ranks above every other comes out first. The order is the
/// element type's own (a static function, inlined into the sifting loops, rather than a stored
/// closure called through a pointer at every comparison).
struct PriorityQueue<Element: HeapOrdered> {
    private var elements: [Element] = []

    mutating func insert(_ element: Element) {
        elements.append(element)
        elements.withUnsafeMutableBufferPointer { heap in
            // Sift the hole up: parents that rank below move down into it.
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard Element.ranksAbove(element, heap[parent]) else { break }
                heap[child] = heap[parent]
                child = parent
            }
            heap[child] = element
        }
    }

    mutating func popFirst() -> Element? {
        guard let last = elements.popLast() else { return nil }
        guard !elements.isEmpty else { return last }
        return elements.withUnsafeMutableBufferPointer { heap in
            let top = heap[0]
            // Sift the hole down from the root for `last`: children that rank above it move up.
            var parent = 0
            let count = heap.count
            while true {
                let left = 2 * parent + 1
                guard left < count else { break }
                var best = left
                if left + 1 < count, Element.ranksAbove(heap[left + 1], heap[left]) { best = left + 1 }
                guard Element.ranksAbove(heap[best], last) else { break }
                heap[parent] = heap[best]
                parent = best
            }
            heap[parent] = last
            return top
        }
    }
}
