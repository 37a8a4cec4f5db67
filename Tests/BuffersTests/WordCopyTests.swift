import Buffers
import Testing

@Suite("Copies of a few bytes by words")
struct WordCopyTests {
    @Test("4 to 16 bytes at every offset: exactly those bytes, nothing around them written")
    func small() {
        let source = (0..<48).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) }
        for count in 4...16 {
            for offset in 0..<8 {
                var target = [UInt8](repeating: 0xEE, count: 48)
                source.withUnsafeBytes { from in
                    target.withUnsafeMutableBytes { to in
                        WordCopy.copy(from.baseAddress! + offset, to: to.baseAddress! + 5, count: count)
                    }
                }
                #expect(Array(target[5..<(5 + count)]) == Array(source[offset..<(offset + count)]))
                #expect(target[..<5].allSatisfy { $0 == 0xEE })
                #expect(target[(5 + count)...].allSatisfy { $0 == 0xEE })
            }
        }
    }

    @Test("32 bytes as two vectors")
    func words() {
        let source = (0..<40).map { UInt8(255 - $0) }
        var target = [UInt8](repeating: 0, count: 40)
        source.withUnsafeBytes { from in
            target.withUnsafeMutableBytes { to in
                WordCopy.copyVectors(2, from.baseAddress! + 3, to: to.baseAddress! + 1)
            }
        }
        #expect(Array(target[1..<33]) == Array(source[3..<35]))
        #expect(target[0] == 0 && target[33...].allSatisfy { $0 == 0 })
    }
}
