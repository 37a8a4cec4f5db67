/// A binary max-heap: the element `ranksAbove` every other comes out first.
struct PriorityQueue<Element> {
    private var elements: [Element] = []
    private let ranksAbove: (Element, Element) -> Bool

    init(ranksAbove: @escaping (Element, Element) -> Bool) {
        self.ranksAbove = ranksAbove
    }

    var isEmpty: Bool { elements.isEmpty }

    mutating func insert(_ element: Element) {
        elements.append(element)
        var child = elements.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard ranksAbove(elements[child], elements[parent]) else { break }
            elements.swapAt(child, parent)
            child = parent
        }
    }

    mutating func popFirst() -> Element? {
        guard !elements.isEmpty else { return nil }
        elements.swapAt(0, elements.count - 1)
        let top = elements.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < elements.count else { break }
            var best = left
            if left + 1 < elements.count, ranksAbove(elements[left + 1], elements[left]) { best = left + 1 }
            guard ranksAbove(elements[best], elements[parent]) else { break }
            elements.swapAt(best, parent)
            parent = best
        }
        return top
    }
}
