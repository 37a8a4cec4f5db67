import Buffers

/// The element kinds of an Apple XML property list 1.0.
public enum PlistKind: UInt8, Sendable, BitwiseCopyable, CustomStringConvertible {
    case dict, array, key, string, integer, real, `true`, `false`, date, data

    /// The element name as written in the file: `dict`, `integer`, ...
    public var description: String {
        switch self {
        case .dict: "dict"
        case .array: "array"
        case .key: "key"
        case .string: "string"
        case .integer: "integer"
        case .real: "real"
        case .true: "true"
        case .false: "false"
        case .date: "date"
        case .data: "data"
        }
    }

    /// Whether the element holds other elements rather than text.
    @inlinable public var isContainer: Bool {
        switch self {
        case .dict, .array: true
        default: false
        }
    }

    /// The length in bytes of the element's name.
    var nameLength: Int {
        switch self {
        case .key: 3
        case .dict, .true, .date, .data, .real: 4
        case .array, .false: 5
        case .string: 6
        case .integer: 7
        }
    }
}

/// Where an element starts in its file: the line and column (both from 1) of its `<`.
/// Columns count Unicode scalars.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible, BitwiseCopyable {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (a: SourceLocation, b: SourceLocation) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }

    public var description: String { "\(line):\(column)" }
}

/// One element of a materialized value. Children follow their parent; `end` is the index after the
/// last descendant, so a subtree is the range `index..<end` and the next sibling starts at `end`.
@usableFromInline
struct PlistNodeRecord: BitwiseCopyable {
    @usableFromInline var kind: PlistKind
    @usableFromInline var line: Int32
    @usableFromInline var column: Int32
    @usableFromInline var textStart: Int
    @usableFromInline var textEnd: Int
    @usableFromInline var end: Int
}

/// Storage for one materialized value and its descendants: flat nodes and one text buffer.
/// The reader reuses it between values when nobody else holds it. Only the reading thread mutates
/// it, so the per-access exclusivity checks (a sixth of the reading time) are switched off.
@usableFromInline
final class PlistFragment {
    @usableFromInline @exclusivity(unchecked) var nodes = RawBuffer<PlistNodeRecord>()
    @usableFromInline @exclusivity(unchecked) var text = RawBuffer<UInt8>()

    deinit {
        nodes.deallocate()
        text.deallocate()
    }

    func reset() {
        nodes.removeAll()
        text.removeAll()
    }
}

/// A value read from a property list: its kind, where it starts, its exact text (for leaves) and its
/// children (for containers). Numbers keep their text exactly as written, so `<real>19.99</real>` can be
/// converted to money without ever passing through a binary float.
///
/// Its accessors are inlinable: a decoder in another module reads a few of them per element, and
/// specialized in place they cost a load or two rather than a generic call.
public struct PlistValue {
    @usableFromInline let fragment: PlistFragment
    @usableFromInline let index: Int

    @inlinable
    init(fragment: PlistFragment, index: Int) {
        self.fragment = fragment
        self.index = index
    }

    @inlinable var record: PlistNodeRecord { fragment.nodes[index] }

    @inlinable public var kind: PlistKind { record.kind }

    /// The position of the element's start tag.
    @inlinable public var location: SourceLocation {
        let r = record
        return SourceLocation(line: Int(r.line), column: Int(r.column))
    }

    /// The element's text content as written (entities decoded), for keys, strings, numbers, dates
    /// and data. Empty for containers and booleans.
    public var text: String {
        withTextBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the UTF-8 bytes of the element's text, without copying them.
    @inlinable public func withTextBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let r = record
        return try fragment.text.withUnsafeBufferPointer { all in
            try body(UnsafeBufferPointer(rebasing: all[r.textStart..<r.textEnd]))
        }
    }

    /// The elements of an array (or the alternating keys and values of a dict), in file order.
    @inlinable public var children: Children { Children(fragment: fragment, start: index + 1, end: record.end) }

    /// This element's position within the value it was read with: a plain integer for cheap
    /// bookkeeping, turned back into a value by ``value(at:)`` on any value of the same read.
    @inlinable public var position: Int { index }

    /// The element at `position` (from ``position``) of the value this one was read with.
    @inlinable public func value(at position: Int) -> PlistValue { PlistValue(fragment: fragment, index: position) }

    /// The entries of a dict in file order. Repeated keys are kept: spotting them is the caller's job.
    @inlinable public var entries: Entries { Entries(children: children) }

    /// Children of a container, in file order.
    public struct Children: Sequence {
        @usableFromInline let fragment: PlistFragment
        @usableFromInline let start: Int
        @usableFromInline let end: Int

        @inlinable
        init(fragment: PlistFragment, start: Int, end: Int) {
            self.fragment = fragment
            self.start = start
            self.end = end
        }

        @inlinable public var isEmpty: Bool { start >= end }

        /// How many there are, counted without making a value of each.
        public var count: Int {
            var count = 0
            var position = start
            while position < end {
                position = fragment.nodes[position].end
                count += 1
            }
            return count
        }

        @inlinable
        public func makeIterator() -> Iterator { Iterator(fragment: fragment, position: start, end: end) }

        public struct Iterator: IteratorProtocol {
            @usableFromInline let fragment: PlistFragment
            @usableFromInline var position: Int
            @usableFromInline let end: Int

            @inlinable
            init(fragment: PlistFragment, position: Int, end: Int) {
                self.fragment = fragment
                self.position = position
                self.end = end
            }

            @inlinable
            public mutating func next() -> PlistValue? {
                guard position < end else { return nil }
                let value = PlistValue(fragment: fragment, index: position)
                position = fragment.nodes[position].end
                return value
            }
        }
    }

    /// Key–value pairs of a dict. The reader guarantees that a dict's children alternate key, value.
    public struct Entries: Sequence {
        @usableFromInline let children: Children

        @inlinable
        init(children: Children) { self.children = children }

        @inlinable
        public func makeIterator() -> Iterator { Iterator(base: children.makeIterator()) }

        public struct Iterator: IteratorProtocol {
            @usableFromInline var base: Children.Iterator

            @inlinable
            init(base: Children.Iterator) { self.base = base }

            @inlinable
            public mutating func next() -> (key: PlistValue, value: PlistValue)? {
                guard let key = base.next(), let value = base.next() else { return nil }
                return (key, value)
            }
        }
    }
}

/// A dict key read in a streamed dict, delivered with its value.
public struct PlistKey: Sendable, Equatable {
    public var name: String
    public var location: SourceLocation

    public init(name: String, location: SourceLocation) {
        self.name = name
        self.location = location
    }
}

/// Values copied out of the reader's storage into storage of their own, many to one buffer: for
/// handing values to another thread in batches, with no allocation per value.
public final class PlistValueBatch: @unchecked Sendable {
    private let fragment = PlistFragment()
    private var roots: [Int] = []

    public init(reservingElements elements: Int = 0, textBytes: Int = 0) {
        fragment.nodes.reserve(elements)
        fragment.text.reserve(textBytes)
    }

    public var count: Int { roots.count }
    public var isEmpty: Bool { roots.isEmpty }

    /// Copies `value` and its subtree in.
    public func append(_ value: PlistValue) {
        let source = value.fragment
        let first = value.index
        let last = source.nodes[first].end
        let nodeShift = fragment.nodes.count - first
        let textStart = source.nodes[first].textStart
        let textEnd =
            last > first
            ? max(source.nodes[last - 1].textEnd, source.nodes[first].textEnd) : source.nodes[first].textEnd
        let textShift = fragment.text.count - textStart
        roots.append(fragment.nodes.count)
        for index in first..<last {
            var node = source.nodes[index]
            node.end += nodeShift
            node.textStart += textShift
            node.textEnd += textShift
            fragment.nodes.append(node)
        }
        source.text.withUnsafeBufferPointer {
            fragment.text.append(contentsOf: UnsafeBufferPointer(rebasing: $0[textStart..<textEnd]))
        }
    }

    /// The values, in the order they were appended.
    public var values: [PlistValue] { roots.map { PlistValue(fragment: fragment, index: $0) } }
}
