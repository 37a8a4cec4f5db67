#!/usr/bin/env bash
# Side-by-side, whole-process timings of checkout and the peers a user would otherwise use, on the
# same generated files, with totals checked against the peers'. Commands compared are timed in
# rounds (peers/rounds.py: every command once per round, 5 rounds after a warm-up, 11 for the spellings): medians, and
# for ratios the range over the rounds, each round's runs made seconds apart.
# Needs: python3 with orjson (pip install orjson).
set -euo pipefail
cd "$(dirname "$0")"
root=$(cd .. && pwd)
data=${1:-$(mktemp -d)}
swift build -c release --package-path "$root" --product checkout >/dev/null
swift build -c release --product FoundationCartPeer >/dev/null
swift build -c release --product FoundationPlistPeer >/dev/null
checkout="$root/.build/release/checkout"
bin=$(swift build -c release --show-bin-path)
"$checkout" bench --lines 1000000 --promotions 100000 --products 1000 --batch-carts 1000000 --emit "$data" >/dev/null
# The same catalog, and 100,000 promotions of which a third of the item promotions are bundles and buy-X-get-Ys.
"$checkout" bench --lines 0 --promotions 100000 --products 1000 --group-share 0.333 --emit "$data/v2" >/dev/null
printf '<plist><array/></plist>\n' > "$data/none.plist"
# The same catalog with taxes (docs/taxes.md): 21 % by default, every third product 10 %, some 5.5 %;
# prices including tax (Taxed.json) and excluding it (TaxedNet.json).
python3 - "$data" <<'PY'
import json, sys
catalog = json.load(open(f"{sys.argv[1]}/Products.json"))
for i, product in enumerate(catalog["products"]):
    if i % 3 == 0:
        product["tax_rate"] = 10
    elif i % 7 == 0:
        product["tax_rate"] = "5.5"
catalog["tax_rate"] = 21
json.dump(catalog, open(f"{sys.argv[1]}/Taxed.json", "w"), indent=1)
catalog["prices_include_tax"] = False
json.dump(catalog, open(f"{sys.argv[1]}/TaxedNet.json", "w"), indent=1)
PY
# The same cart spelled the ways other writers spell carts.
python3 "$root/Benchmarks/peers/respell.py" "$data/cart.json" "$data/spellings"
# A 1,000,000-product catalog and 20,000 promotions whose codes it lacks (typos, other letter case, unknown).
"$checkout" bench --lines 0 --promotions 0 --products 1000000 --emit "$data/large" >/dev/null
python3 - "$data/large/Products.json" "$data/large/Unknown.plist" <<'PY'
import json, random, sys
random.seed(5)
codes = [product["code"] for product in json.load(open(sys.argv[1]))["products"]]
out = ['<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict><key>promotions</key><array>\n']
for i in range(20000):
    code = random.choice(codes)
    bad = [code.lower(), code[:-2] + code[-1] + code[-2] + "X", "Q" + code[1:]][i % 3]
    out.append(f'<dict><key>id</key><string>p{i}</string><key>name</key><string>P {i}</string><key>type</key><string>percent</string>'
               f'<key>codes</key><array><string>{bad}</string></array><key>percent</key><integer>10</integer></dict>\n')
out.append("</array></dict></plist>\n")
open(sys.argv[2], "w").write("".join(out))
PY
cd "$data"

echo "== totals (must agree)"
ours=$("$checkout" price cart.json --catalog Products.json --promotions none.plist --format json | sed -n 's/^  "total": "\(.*\)",$/\1/p')
python_total=$(python3 "$root/Benchmarks/peers/orjson_cart.py" Products.json cart.json)
foundation_total=$("$bin/FoundationCartPeer" Products.json cart.json)
echo "checkout $ours, orjson $python_total, JSONDecoder $foundation_total"
[ "$ours" = "$python_total" ] && [ "$ours" = "$foundation_total" ] || { echo "totals differ"; exit 1; }

results=$(mktemp -d)
run() { python3 "$root/Benchmarks/peers/rounds.py" ${ROUNDS_FLAGS:-} --export-json "$results/$1.json" "${@:2}"; python3 - "$results/$1.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(f'  {r["median"] * 1000:9.1f} ms  {r["command"]}')
PY
}
# The second command's time over the first's, from run NAME's results: the median of the rounds'
# ratios and their range.
ratio() { python3 - "$results/$1.json" <<'PY'
import json, statistics, sys
r = json.load(open(sys.argv[1]))["results"]
rounds = [b / a for a, b in zip(r[0]["times"], r[1]["times"])]
cpu = [b / a for a, b in zip(r[0]["cpu_times"], r[1]["cpu_times"])]
print(f'  ratio {statistics.median(rounds):.2f}x (second / first; rounds {min(rounds):.2f}-{max(rounds):.2f});'
      f' CPU time {statistics.median(cpu):.2f}x (rounds {min(cpu):.2f}-{max(cpu):.2f})')
PY
}
echo "== 1,000,000-line cart, no promotions (target: 20x faster than orjson)"
run cart "python3 $root/Benchmarks/peers/orjson_cart.py Products.json cart.json" "$bin/FoundationCartPeer Products.json cart.json" \
    "$checkout price cart.json --catalog Products.json --promotions none.plist --format json"
echo "== the same cart spelled five other ways (target: within 1.25x of the generator's spelling, 25x orjson on each)"
for spelling in compact crlf bom escaped python; do
    total=$("$checkout" price spellings/$spelling.json --catalog Products.json --promotions none.plist --format json | sed -n 's/^  "total": "\(.*\)",$/\1/p')
    peer=$(python3 "$root/Benchmarks/peers/orjson_cart.py" Products.json spellings/$spelling.json)
    [ "$total" = "$ours" ] && [ "$peer" = "$ours" ] || { echo "totals differ on $spelling: $total, orjson $peer"; exit 1; }
done
ours_spelled=() peers_spelled=()
for spelling in compact crlf bom escaped python; do
    ours_spelled+=("$checkout price spellings/$spelling.json --catalog Products.json --promotions none.plist --format json")
    peers_spelled+=("python3 $root/Benchmarks/peers/orjson_cart.py Products.json spellings/$spelling.json")
done
# Eleven rounds here: these runs last 20-30 ms, and a round of this VM's noise moves one of them by a
# third, which five rounds' median does not always absorb.
ROUNDS_FLAGS="--runs 11" run spellings "$checkout price cart.json --catalog Products.json --promotions none.plist --format json" \
    "${ours_spelled[@]}" "${peers_spelled[@]}"
python3 - "$results/spellings.json" <<'PY'
import json, statistics, sys
results = json.load(open(sys.argv[1]))["results"]
generator, ours, peer = results[0], results[1:6], results[6:]
def rounds(a, b):
    r = [x / y for x, y in zip(a["times"], b["times"])]
    return f"{statistics.median(r):.2f}x (rounds {min(r):.2f}-{max(r):.2f})"
for name, mine, theirs in zip(["compact", "crlf", "bom", "escaped", "python"], ours, peer):
    print(f"  {name:8} {rounds(mine, generator)} the generator's spelling, {rounds(theirs, mine)} faster than orjson")
PY
echo "== validate 20,000 promotions with unknown codes against 1,000,000 products (target: well under 1 s)"
# validate exits 1: the codes are errors.
ROUNDS_FLAGS=--ignore-failure run suggestions "$checkout validate large/Unknown.plist --catalog large/Products.json --reporter json"
"$checkout" validate large/Unknown.plist --catalog large/Products.json | tail -1 || true
echo "== the same cart against 100,000 promotions (target: 0.3 s), next to PropertyListDecoder merely decoding them"
run rules "$checkout price cart.json --catalog Products.json --promotions Promotions.plist --at 2026-06-01T00:00:00Z --format json" \
    "$bin/FoundationPlistPeer Promotions.plist"
echo "== the same cart against 100,000 promotions, a third of them bundle/bxgy, next to v1 rules only (target: at most 1.5x)"
run v2 "$checkout price cart.json --catalog Products.json --promotions Promotions.plist --at 2026-06-01T00:00:00Z --format json" \
    "$checkout price cart.json --catalog Products.json --promotions v2/Promotions.plist --at 2026-06-01T00:00:00Z --format json"
ratio v2
echo "== load + validate 100,000 promotions (target: 5x faster than PropertyListDecoder, 64 MiB)"
run plist "$bin/FoundationPlistPeer Promotions.plist" "$checkout validate Promotions.plist --at 2026-06-01T00:00:00Z"
/usr/bin/time -f "  peak memory of validate: %M KB" "$checkout" validate Promotions.plist --at 2026-06-01T00:00:00Z >/dev/null
echo "== the whole job: the 1,000,000-line cart against the 100,000 promotions, next to PropertyListDecoder merely decoding them (target: 5x)"
python3 - "$results/rules.json" <<'PY'
import json, statistics, sys
job, peer = json.load(open(sys.argv[1]))["results"]
rounds = [p / j for j, p in zip(job["times"], peer["times"])]
print(f"  {statistics.median(rounds):.2f}x, rounds {min(rounds):.2f}-{max(rounds):.2f} (PropertyListDecoder {peer['median'] * 1000:.0f} ms, checkout {job['median'] * 1000:.0f} ms)")
PY
echo "== the 100,000 promotions laid out other ways (target: 6x PropertyListDecoder on each)"
python3 "$root/Benchmarks/peers/respell_plist.py" Promotions.plist plists
for layout in oneline xcode crlf real string; do
    "$checkout" validate plists/$layout.plist --at 2026-06-01T00:00:00Z >/dev/null || { echo "$layout does not validate"; exit 1; }
done
# PropertyListDecoder reads the layouts whose value types its records declare (not <real> or <string> amounts:
# those are compared with its time on the generator's file, in the same round).
run plists "$checkout validate Promotions.plist --at 2026-06-01T00:00:00Z" \
    "$checkout validate plists/oneline.plist --at 2026-06-01T00:00:00Z" "$checkout validate plists/xcode.plist --at 2026-06-01T00:00:00Z" \
    "$checkout validate plists/crlf.plist --at 2026-06-01T00:00:00Z" "$checkout validate plists/real.plist --at 2026-06-01T00:00:00Z" \
    "$checkout validate plists/string.plist --at 2026-06-01T00:00:00Z" \
    "$bin/FoundationPlistPeer Promotions.plist" "$bin/FoundationPlistPeer plists/oneline.plist" \
    "$bin/FoundationPlistPeer plists/xcode.plist" "$bin/FoundationPlistPeer plists/crlf.plist"
python3 - "$results/plists.json" <<'PY'
import json, statistics, sys
results = json.load(open(sys.argv[1]))["results"]
ours, peer = results[:6], results[6:]
peer += [peer[0], peer[0]]
for name, mine, theirs in zip(["generator", "oneline", "xcode", "crlf", "real", "string"], ours, peer):
    rounds = [p / m for m, p in zip(mine["times"], theirs["times"])]
    print(f"  {name:9} checkout {mine['median'] * 1000:5.0f} ms, PropertyListDecoder {theirs['median'] * 1000:5.0f} ms: "
          f"{statistics.median(rounds):.2f}x (rounds {min(rounds):.2f}-{max(rounds):.2f})")
PY
# PropertyListDecoder's time over checkout's, per pair of commands (peer, checkout) of run NAME: the
# median of the rounds' ratios and their range.
speedups() { python3 - "$results/$1.json" "${@:2}" <<'PY'
import json, statistics, sys
results = json.load(open(sys.argv[1]))["results"]
for name, (peer, ours) in zip(sys.argv[2:], zip(results[0::2], results[1::2])):
    rounds = [p / m for p, m in zip(peer["times"], ours["times"])]
    print(f"  {name:9} checkout {ours['median'] * 1000:5.0f} ms, PropertyListDecoder {peer['median'] * 1000:5.0f} ms: "
          f"{statistics.median(rounds):.2f}x (rounds {min(rounds):.2f}-{max(rounds):.2f})")
PY
}
echo "== validate --catalog: the 100,000 promotions against their 1,000 products (unknown codes, prices, ~32,000 shadowed warnings), next to PropertyListDecoder merely decoding them (target: 6x, 64 MiB)"
at=--at=2026-06-01T00:00:00Z
run catalog "$bin/FoundationPlistPeer Promotions.plist" "$checkout validate Promotions.plist --catalog Products.json $at" \
    "$bin/FoundationPlistPeer plists/xcode.plist" "$checkout validate plists/xcode.plist --catalog Products.json $at" \
    "$bin/FoundationPlistPeer plists/oneline.plist" "$checkout validate plists/oneline.plist --catalog Products.json $at"
speedups catalog generator xcode oneline
for layout in Promotions.plist plists/xcode.plist plists/oneline.plist; do
    /usr/bin/time -f "  peak memory of validate --catalog on $layout: %M KB" "$checkout" validate $layout --catalog Products.json $at >/dev/null
done
echo "== 20,000 promotions whose codes are 3 edits from the catalog's (OLD000123 for SKU000123; Xcode's layout), next to PropertyListDecoder (target: 2x)"
python3 "$root/Benchmarks/peers/renamed_codes.py" Products.json Promotions.plist 20000 renamed
# validate exits 1: unknown codes are errors.
ROUNDS_FLAGS=--ignore-failure run renamed "$bin/FoundationPlistPeer renamed/Unknown.plist" \
    "$checkout validate renamed/Unknown.plist --catalog renamed/Products.json $at" \
    "$bin/FoundationPlistPeer renamed/Unknown.plist" \
    "$checkout validate renamed/Unknown.plist --catalog renamed/Products.json $at --reporter json"
speedups renamed text json
"$checkout" validate renamed/Unknown.plist --catalog renamed/Products.json $at | tail -1 || true
echo "== the unhappy path of the plist scanner: a processing instruction in the last promotion (taken), a namespace declared there (left to libxml2 after the scanner read the rest), next to the generator's file (said in docs/performance.md)"
python3 - Promotions.plist plists <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
last = data.rfind(b"<dict>")
open(f"{sys.argv[2]}/pi-end.plist", "wb").write(data[:last] + b"<?editor note?>" + data[last:])
open(f"{sys.argv[2]}/ns-end.plist", "wb").write(data[:last] + b'<dict xmlns:e="urn:editor">' + data[last + 6:])
PY
run fallback "$checkout validate Promotions.plist $at" "$checkout validate plists/pi-end.plist $at" \
    "$checkout validate plists/ns-end.plist $at"
/usr/bin/time -f "  peak memory of validate on ns-end.plist: %M KB" "$checkout" validate plists/ns-end.plist $at >/dev/null
echo "== validate --catalog: 50,000 promotions, 7,500 of them on brands, tags and categories of 100,000 products (once over 100 s), next to PropertyListDecoder (target: no cliff, under 2 s)"
python3 "$root/Benchmarks/peers/selector_shop.py" selectors
run selectors "$bin/FoundationPlistPeer selectors/Promotions.plist" \
    "$checkout validate selectors/Promotions.plist --catalog selectors/Products.json $at"
speedups selectors selectors
/usr/bin/time -f "  peak memory of validate --catalog on the selector shop: %M KB" \
    "$checkout" validate selectors/Promotions.plist --catalog selectors/Products.json $at >/dev/null
echo "== the batch phase on 1 and 2 threads (in process, checkout bench; target: 1.9x)"
# Pairs in alternating order (1 2, 2 1, ...), so that drift of the machine's speed falls on both.
batch_phase() {
    python3 -c "import json,sys; p=[x for x in json.load(sys.stdin)['phases'] if x['name']=='price batch'][0]; print(p['seconds'], p['cpu_seconds'])"
}
for i in 1 2 3 4 5 6 7 8 9 10; do
    order="1 2"; [ $((i % 2)) = 0 ] && order="2 1"
    for threads in $order; do
        echo "$i $threads $("$checkout" bench --lines 0 --promotions 100000 --batch-carts 1000000 --threads $threads --format json | batch_phase)"
    done
done | python3 -c "
import statistics, sys
rows = [line.split() for line in sys.stdin]
one = {r[0]: (float(r[2]), float(r[3])) for r in rows if r[1] == '1'}
two = {r[0]: (float(r[2]), float(r[3])) for r in rows if r[1] == '2'}
ratios = []
for pair in sorted(one, key=int):
    ratios.append(one[pair][0] / two[pair][0])
    print(f'  pair {pair}: 1 thread {one[pair][0]:.2f} s, 2 threads {two[pair][0]:.2f} s: {ratios[-1]:.2f}x; '
          f'CPU/wall with 2: {two[pair][1] / two[pair][0]:.3f}; CPU with 2 / CPU with 1: {two[pair][1] / one[pair][1]:.3f}')
print(f'  median {statistics.median(ratios):.2f}x (pairs {min(ratios):.2f}-{max(ratios):.2f})')
"
# What the machine gives two busy threads at all: the same 1-thread run alone, then two of them at once
# (separate processes, nothing shared).
for i in 1 2 3; do
    alone=$("$checkout" bench --lines 0 --promotions 100000 --batch-carts 1000000 --threads 1 --format json | batch_phase)
    "$checkout" bench --lines 0 --promotions 100000 --batch-carts 1000000 --threads 1 --format json >"$results/side.json" &
    beside=$("$checkout" bench --lines 0 --promotions 100000 --batch-carts 1000000 --threads 1 --format json | batch_phase)
    wait
    other=$(batch_phase <"$results/side.json")
    python3 -c "
a, b, c = float('${alone% *}'), float('${beside% *}'), float('${other% *}')
print(f'  control {$i}: one 1-thread run alone {a:.2f} s; two at once (separate processes) {b:.2f} s and {c:.2f} s: {max(b, c) / a:.2f}x as long')"
done
echo "== 1,000,000 small carts, receipts out (target: 500,000 carts/s)"
run batch "$checkout price batch.ndjson --catalog Products.json --promotions Promotions.plist --at 2026-06-01T00:00:00Z --format json --batch"
echo "== the same batch with a taxed catalog (prices with tax, then without), next to untaxed (target: at most 1.05x)"
run tax "$checkout price batch.ndjson --catalog Products.json --promotions Promotions.plist --at 2026-06-01T00:00:00Z --format json --batch" \
    "$checkout price batch.ndjson --catalog Taxed.json --promotions Promotions.plist --at 2026-06-01T00:00:00Z --format json --batch"
ratio tax
run taxnet "$checkout price batch.ndjson --catalog Products.json --promotions Promotions.plist --at 2026-06-01T00:00:00Z --format json --batch" \
    "$checkout price batch.ndjson --catalog TaxedNet.json --promotions Promotions.plist --at 2026-06-01T00:00:00Z --format json --batch"
ratio taxnet
if command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
    # Steadier on a shared machine: neither the batch's other thread nor anything else the machine
    # runs shares the core (docs/performance.md: rounds within 0.98-1.13 instead of 0.5-1.4).
    echo "== the same two, one thread pinned to one core (target: at most 1.05x)"
    one="taskset -c 1 $checkout price batch.ndjson --promotions Promotions.plist --at 2026-06-01T00:00:00Z --format json --batch --threads 1"
    ROUNDS_FLAGS="--runs 11" run taxone "$one --catalog Products.json" "$one --catalog Taxed.json"
    ratio taxone
    ROUNDS_FLAGS="--runs 11" run taxnetone "$one --catalog Products.json" "$one --catalog TaxedNet.json"
    ratio taxnetone
fi
echo "== the 1,000,000-line cart against 100,000 promotions with --explain, next to without (target: at most 2x)"
run explain "$checkout price cart.json --catalog Products.json --promotions Promotions.plist --at 2026-06-01T00:00:00Z --format json" \
    "$checkout price cart.json --catalog Products.json --promotions Promotions.plist --at 2026-06-01T00:00:00Z --format json --explain"
ratio explain
echo "== diff of a promotions file against itself on the batch, next to pricing it once (target: at most 2.2x)"
run diff "$checkout price batch.ndjson --catalog Products.json --promotions Promotions.plist --at 2026-06-01T00:00:00Z --format json --batch" \
    "$checkout diff Promotions.plist Promotions.plist --carts batch.ndjson --catalog Products.json --at 2026-06-01T00:00:00Z --batch"
ratio diff
# Selectors (docs/selectors.md): a 1,000,000-product catalog with categories (10,000 shelves in a
# 3-level tree), 500 brands and 2,000 tags; 100,000 promotions of which half the item promotions
# name their products with a selector — written three ways: selectors, the codes each selects, one code.
for spelling in selectors codes one-code; do
    "$checkout" bench --lines 1000000 --promotions 100000 --products 1000000 --attributes --selector-share 0.5 \
        --selector-spelling "$spelling" --emit "$data/select-$spelling" >/dev/null
done
printf '[]\n' > "$data/empty.json"
sel="$data/select-selectors"
echo "== load and compile 100,000 promotions, half with selectors, against 1,000,000 products, next to the same with one code each (target: at most 1.5x)"
run selectload "$checkout price empty.json --catalog $data/select-one-code/Products.json --promotions $data/select-one-code/Promotions.plist --at 2026-06-01T00:00:00Z" \
    "$checkout price empty.json --catalog $sel/Products.json --promotions $sel/Promotions.plist --at 2026-06-01T00:00:00Z"
ratio selectload
echo "== the 1,000,000-line cart against those promotions with selectors, next to the same with the codes they select (target: no slower)"
run selectprice "$checkout price $data/select-codes/cart.json --catalog $data/select-codes/Products.json --promotions $data/select-codes/Promotions.plist --at 2026-06-01T00:00:00Z --format json" \
    "$checkout price $sel/cart.json --catalog $sel/Products.json --promotions $sel/Promotions.plist --at 2026-06-01T00:00:00Z --format json"
ratio selectprice
echo "== a 3-item cart with the shipped rules (target: 20 ms)"
run small "$checkout price $root/Rules/carts/example-1.json"
echo "(files in $data)"
