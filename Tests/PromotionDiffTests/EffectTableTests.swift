import SeededRandom
import Testing

@testable import PromotionDiff

/// The diff's table of what each promotion did, against a dictionary written the plain way.
@Suite("checkout diff: the table of promotion effects")
struct EffectTableTests {
    @Test("a cart counted once however many of its lines a promotion used; discounts summed; merged")
    func byHand() {
        var table = EffectTable()
        // Cart 1: promotion 7 on two lines (2.50 and 1.25), promotion 40 once (0.99).
        table.add(7, discount: 250, cart: 1)
        table.add(40, discount: 99, cart: 1)
        table.add(7, discount: 125, cart: 1)
        // Cart 2: promotion 7 again (0.05).
        table.add(7, discount: 5, cart: 2)
        #expect(table[7] == DiffTally.Effect(carts: 2, discount: 380))
        #expect(table[40] == DiffTally.Effect(carts: 1, discount: 99))
        #expect(table[8] == nil)
        #expect(table.count == 2)

        var later = EffectTable()
        later.add(40, discount: 1, cart: 1)
        later.add(3, discount: 1_000, cart: 2)
        table.merge(later)
        #expect(
            table.dictionary == [
                7: DiffTally.Effect(carts: 2, discount: 380),
                40: DiffTally.Effect(carts: 2, discount: 100),
                3: DiffTally.Effect(carts: 1, discount: 1_000)
            ])
        // A cart numbered after the merge is counted, not taken for one merged in.
        table.add(3, discount: 1, cart: 3)
        #expect(table[3] == DiffTally.Effect(carts: 2, discount: 1_001))
    }

    @Test("random adds and merges, past several growths, agree with a dictionary")
    func differential() {
        var random = SplitMix64(seed: 26_11_2026)
        for round in 0..<200 {
            // Few keys in some rounds (many repeats), up to 5,000 in others (the table grows).
            let keys = round % 3 == 0 ? 8 : 5_000
            var pieces: [(table: EffectTable, model: [Int: DiffTally.Effect])] = []
            var cart = 0
            for _ in 0..<random.draw(1...4) {
                var table = EffectTable()
                var model: [Int: DiffTally.Effect] = [:]
                for _ in 0..<random.draw(0...600) {
                    cart += 1
                    var counted = Set<Int>()
                    for _ in 0..<random.draw(1...6) {
                        let key = random.draw(0...(keys - 1))
                        let discount = Int64(random.draw(0...100_000))
                        table.add(key, discount: discount, cart: cart)
                        var effect = model[key, default: DiffTally.Effect()]
                        if counted.insert(key).inserted { effect.carts += 1 }
                        effect.discount += Int128(discount)
                        model[key] = effect
                    }
                }
                #expect(table.dictionary == model)
                #expect(table.count == model.count)
                pieces.append((table, model))
            }
            var whole = EffectTable()
            var wholeModel: [Int: DiffTally.Effect] = [:]
            for piece in pieces {
                whole.merge(piece.table)
                for (key, effect) in piece.model {
                    wholeModel[key, default: DiffTally.Effect()].carts += effect.carts
                    wholeModel[key, default: DiffTally.Effect()].discount += effect.discount
                }
            }
            #expect(whole.dictionary == wholeModel)
            for key in 0..<min(keys, 50) { #expect(whole[key] == wholeModel[key]) }
        }
    }
}
