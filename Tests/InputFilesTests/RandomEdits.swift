import SeededRandom
import Workloads

/// `count` inputs made from `seeds` by one to three random edits each — a byte replaced or inserted
/// from `alphabet`, or the input cut short — the same ones for the same `seed`.
func randomEdits(of seeds: [[UInt8]], alphabet: [UInt8], count: Int, seed: UInt64) -> [[UInt8]] {
    var random = SplitMix64(seed: seed)
    return (0..<count).map { _ in
        var bytes = seeds[Int(random.next() % UInt64(seeds.count))]
        for _ in 0..<(1 + random.next() % 3) {
            let position = bytes.isEmpty ? 0 : Int(random.next() % UInt64(bytes.count))
            switch random.next() % 3 {
            case 0 where !bytes.isEmpty: bytes[position] = alphabet[Int(random.next() % UInt64(alphabet.count))]
            case 1: bytes.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: position)
            default: bytes = Array(bytes.prefix(position))
            }
        }
        return bytes
    }
}
