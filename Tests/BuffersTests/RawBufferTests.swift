import Buffers
import Testing

@Suite("RawBuffer")
struct RawBufferTests {
    @Test("appends keep every element in order across growth from empty")
    func growth() {
        var buffer = RawBuffer<Int32>()
        defer { buffer.deallocate() }
        for i in 0..<1_000 { buffer.append(Int32(i * 3)) }
        let chunk: [Int32] = [-1, -2, -3]
        chunk.withUnsafeBufferPointer { buffer.append(contentsOf: $0) }
        #expect(buffer.count == 1_003)
        #expect(Array(buffer.elements) == (0..<1_000).map { Int32($0 * 3) } + [-1, -2, -3])
        buffer[5] = 42
        #expect(buffer[5] == 42)
        #expect(Array(buffer.elements(4, count: 3)) == [12, 42, 18])
    }

    @Test("appendBytes copies exactly the bytes asked for, of every length, across growth")
    func appendBytes() {
        // Each run is cut from the middle of a larger array whose bytes around it differ, so a copy
        // that read or wrote a byte too many would show.
        let source = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        var buffer = RawBuffer<UInt8>()
        defer { buffer.deallocate() }
        var expected: [UInt8] = []
        for count in 0...40 {
            for start in [1, 7, 64 - count / 2] {
                source.withUnsafeBufferPointer { buffer.appendBytes($0.baseAddress! + start, count) }
                expected += source[start..<(start + count)]
                buffer.append(0xEE)
                expected.append(0xEE)
            }
        }
        #expect(buffer.count == expected.count)
        #expect(Array(buffer.elements) == expected)
    }

    @Test("popLast, truncate and removeAll shrink the count; deallocate empties")
    func shrinking() {
        var buffer = RawBuffer<UInt8>(capacity: 2)
        for byte: UInt8 in [1, 2, 3, 4, 5] { buffer.append(byte) }
        #expect(buffer.popLast() == 5)
        buffer.truncate(to: 2)
        #expect(Array(buffer.elements) == [1, 2])
        buffer.removeAll()
        #expect(buffer.popLast() == nil)
        buffer.append(9)
        #expect(Array(buffer.elements) == [9])
        buffer.deallocate()
        #expect(buffer.count == 0 && buffer.elements.isEmpty)
    }

    @Test("bytes: literals, strings and space written in place")
    func text() {
        var buffer = RawBuffer<UInt8>()
        defer { buffer.deallocate() }
        buffer.append(#"{"a":"#)
        buffer.append(utf8: "café ☕")
        buffer.appendUninitialized(3) { p in
            p[0] = UInt8(ascii: "x")
            p[1] = UInt8(ascii: "y")
            p[2] = UInt8(ascii: "}")
        }
        #expect(String(decoding: buffer.elements, as: UTF8.self) == #"{"a":café ☕xy}"#)
    }
}
