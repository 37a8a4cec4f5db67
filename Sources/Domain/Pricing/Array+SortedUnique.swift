extension Array where Element: Comparable {
    /// Sorts the elements and drops repeats, in place: for the few elements of a promotion's
    /// products or of a cart's candidate rules, cheaper than going through a set.
    mutating func sortAndRemoveDuplicates() {
        guard count > 1 else { return }
        sort()
        var unique = 1
        for index in 1..<count where self[index] != self[unique - 1] {
            self[unique] = self[index]
            unique += 1
        }
        removeLast(count - unique)
    }
}

extension RandomAccessCollection where Element: Comparable, Index == Int {
    /// Whether this ascending collection holds `value`: a binary search, for a list as long as
    /// what a selector selects.
    @inlinable @inline(__always)
    public func containsSorted(_ value: Element) -> Bool {
        var (low, high) = (startIndex, endIndex)
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < endIndex && self[low] == value
    }
}
