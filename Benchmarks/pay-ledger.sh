#!/usr/bin/env bash
# What the redemption ledger costs a payment (docs/store.md, "What the ledger costs").
#
# Times `checkout pay` (one process per payment, as a shop's script runs it) on one store, one
# payment after another, in three setups that differ only in the promotions file:
#   plain    — the two promotions without limits: the ledger is never read (the orders still
#              record what they redeem);
#   limited  — the same with `uses` and `uses_per_customer` (set high, so they never run out): each
#              payment reads the ledger in its transaction and holds its redemptions;
#   history  — limited, on a store that already holds HISTORY orders with their redemptions.
# Each setup runs ROUNDS rounds of PAYS payments; the script prints the median and the range
# (fastest round's median to slowest round's) per payment, in milliseconds.
#
#   Benchmarks/pay-ledger.sh [CHECKOUT_BINARY] [PAYS] [ROUNDS] [HISTORY]
set -euo pipefail
checkout=${1:-.build/release/checkout}
pays=${2:-40}
rounds=${3:-5}
history=${4:-100000}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
card=$'4242424242424242\n12/30\n123'

promotions() { # $1: extra keys of both promotions
    cat <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0"><dict><key>version</key><integer>1</integer><key>promotions</key><array>
<dict><key>id</key><string>first</string><key>name</key><string>20% off mugs</string>
<key>type</key><string>percent</string><key>percent</key><integer>20</integer><key>code</key><string>MUG</string>$1</dict>
<dict><key>id</key><string>welcome</string><key>name</key><string>2.00 off</string>
<key>type</key><string>cart</string><key>amount</key><real>2.00</real>$1</dict>
</array></dict></plist>
EOF
}
promotions "" >"$work/plain.plist"
promotions "<key>uses</key><integer>1000000000</integer><key>uses_per_customer</key><integer>1000000000</integer>" \
    >"$work/limited.plist"

# One round: PAYS payments, each of its own customer with one mug; prints ms per payment.
round() { # $1: promotions file, $2: store
    local args=(--promotions "$1" --catalog "$root/Rules/Products.json" --store "$2")
    for ((i = 0; i < pays; i++)); do "$checkout" cart add MUG --customer "C-$i" "${args[@]}" >/dev/null; done
    local start end
    start=$(date +%s%N)
    for ((i = 0; i < pays; i++)); do
        "$checkout" pay --card-stdin --customer "C-$i" "${args[@]}" <<<"$card" >/dev/null
    done
    end=$(date +%s%N)
    echo "scale=2; ($end - $start) / 1000000 / $pays" | bc
}

# A store holding HISTORY completed orders, each redeeming both promotions, spread over 1,000 customers.
seed() { # $1: store
    "$checkout" cart add MUG --store "$1" --catalog "$root/Rules/Products.json" >/dev/null
    python3 - "$1" "$history" <<'EOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
n = int(sys.argv[2])
with db:
    db.executemany(
        "INSERT INTO purchase (number, id, at, receipt, total, currency, card, reference, customer) VALUES (?, ?, 0, '{}', 400, 'EUR', '•••• 4242', 'sim', ?)",
        ((i + 1, f"old_{i}", f"H-{i % 1000}") for i in range(n)))
    db.executemany(
        "INSERT INTO redemption (order_id, promotion, customer, position) VALUES (?, ?, ?, ?)",
        ((f"old_{i}", p, f"H-{i % 1000}", k) for i in range(n) for k, p in enumerate(["first", "welcome"])))
EOF
}

for setup in plain limited history; do
    results=()
    for ((r = 0; r < rounds; r++)); do
        store="$work/$setup-$r.sqlite"
        file="$work/limited.plist"
        [[ $setup == plain ]] && file="$work/plain.plist"
        [[ $setup == history ]] && seed "$store"
        results+=("$(round "$file" "$store")")
    done
    sorted=$(printf '%s\n' "${results[@]}" | sort -n)
    echo "$setup: median $(echo "$sorted" | sed -n "$(((rounds + 1) / 2))p") ms per pay, rounds $(echo "$sorted" | head -1)–$(echo "$sorted" | tail -1) ms ($rounds rounds of $pays)"
done
