extension Array {
    /// Appends `source`'s elements that `keep` accepts by moving them: their strings and arrays
    /// change owner without a reference count going up and back down (for half a large file's
    /// promotions, that was most of the serial time after two parsers finished). Each slot moved
    /// from is refilled with `vacated`, which should own nothing (empty strings and arrays are not
    /// allocated), before `source` is emptied.
    mutating func appendMoving(
        from source: inout [Element], vacated: Element, where keep: (Element) -> Bool = { _ in true }
    ) {
        reserveCapacity(count + source.count)
        source.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for index in buffer.indices {
                let element = (base + index).move()
                (base + index).initialize(to: vacated)
                if keep(element) { append(consume element) }
            }
        }
        source = []
    }
}
