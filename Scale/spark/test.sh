#!/usr/bin/env bash
# Runs the Spark job in local[2] on 200,000 generated carts (and a few that cannot be priced) and
# checks that its receipts, sorted by id, are byte for byte what `checkout price --batch` writes for
# the same file, and that the summary's revenue is the sum of those receipts. Installs pyspark into
# .build-spark/venv when it is missing (Java 17 must be on the machine).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
venv="$root/.build-spark/venv"
if ! "$venv/bin/python" -c "import pyspark" 2>/dev/null; then
    echo "Installing pyspark into $venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q pyspark
fi
export PYSPARK_PYTHON="$venv/bin/python" PYSPARK_DRIVER_PYTHON="$venv/bin/python"
export SPARK_HOME=$("$venv/bin/python" -c "import os, pyspark; print(os.path.dirname(pyspark.__file__))")
# CHECKOUT_BINARY tests a binary built elsewhere (e.g. with --static-swift-stdlib, as executors get it).
if [ -n "${CHECKOUT_BINARY:-}" ]; then
    checkout=$(realpath "$CHECKOUT_BINARY")
else
    swift build -c release --product checkout >/dev/null
    checkout="$root/.build/release/checkout"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
carts=${SPARK_TEST_CARTS:-200000}
"$checkout" bench --lines 0 --promotions 10000 --products 1000 --batch-carts "$carts" --cart-ids --emit "$work/data" >/dev/null 2>&1
# Carts that cannot be priced, with and without an id, in the middle of the file.
head -n $((carts / 2)) "$work/data/batch.ndjson" > "$work/carts.ndjson"
printf '%s\n' '{"id": "bad-1", "items": ["NO-SUCH-CODE"]}' '{"id": "bad-2", "items": [{"code": "P0001", "quantity": 0}]}' >> "$work/carts.ndjson"
# A cart with a bare CR between its members: JSON white space, so one cart, not two broken lines.
printf '{"id": "cr",\r"items": ["P0005"]}\n' >> "$work/carts.ndjson"
tail -n +$((carts / 2 + 1)) "$work/data/batch.ndjson" >> "$work/carts.ndjson"
at=2026-06-01T12:00:00Z

start=$(date +%s.%N)
"$checkout" price "$work/carts.ndjson" --batch --format json --at "$at" \
    --promotions "$work/data/Promotions.plist" --catalog "$work/data/Products.json" > "$work/local.ndjson" || [ $? -eq 1 ]
local_seconds=$(echo "$(date +%s.%N) - $start" | bc)

start=$(date +%s.%N)
"$venv/bin/spark-submit" --master 'local[2]' --conf spark.ui.enabled=false --driver-memory 2g \
    "$root/Scale/spark/price_carts.py" --checkout "$checkout" --promotions "$work/data/Promotions.plist" \
    --catalog "$work/data/Products.json" --carts "file://$work/carts.ndjson" --at "$at" \
    --output "file://$work/spark" --summary "$work/summary.json" --partitions 4 2> "$work/spark.log" || { tail -40 "$work/spark.log"; exit 1; }
spark_seconds=$(echo "$(date +%s.%N) - $start" | bc)

"$venv/bin/python" - "$work" "$carts" <<'PY'
import json, sys
from decimal import Decimal
from pathlib import Path
work, expected = Path(sys.argv[1]), int(sys.argv[2]) + 3
local = (work / "local.ndjson").read_bytes().decode("utf-8").splitlines()
spark = [line for part in sorted((work / "spark").glob("part-*")) for line in part.read_bytes().decode("utf-8").splitlines()]
def without_line(line):
    receipt = json.loads(line)
    return line if "error" not in receipt else json.dumps({k: v for k, v in receipt.items() if k != "line"})
def key(line):
    receipt = json.loads(line)
    if "id" not in receipt:  # an error entry of a cart whose JSON could not be read
        return (2, without_line(line))
    identifier = receipt["id"]
    return (int(isinstance(identifier, str)), str(identifier) if isinstance(identifier, str) else f"{identifier:020d}")
assert len(local) == expected, f"local: {len(local)} lines, expected {expected}"
assert len(spark) == expected, f"spark: {len(spark)} lines, expected {expected}"
local_sorted, spark_sorted = sorted(local, key=key), sorted(spark, key=key)
receipts = [(a, b) for a, b in zip(local_sorted, spark_sorted) if '"error"' not in a]
assert all(a == b for a, b in receipts), "receipts differ"
assert [without_line(a) for a in local_sorted] == [without_line(b) for b in spark_sorted], "error entries differ"
summary = json.loads((work / "summary.json").read_text())
revenue = sum(Decimal(json.loads(line)["total"]) for line in local if '"error"' not in line)
assert Decimal(summary["revenue"]) == revenue, f'summary revenue {summary["revenue"]} != {revenue}'
assert summary["carts"] == expected and summary["failures"] == 2, summary
assert any(json.loads(line).get("id") == "cr" and "error" not in line for line in spark), "the cart with a bare CR"
print(f"spark: {len(spark)} receipts identical to the local batch once sorted by id ({len(receipts)} priced, 2 errors); revenue {revenue}")
PY

# Rules with thousands of errors: more on standard error than a pipe holds. The partition's checkout
# must fail the task, not wait on a full pipe; and the job stops on the driver before it starts.
sed -E 's#<key>type</key><string>[a-z]+</string>#<key>type</key><string>combox</string>#' \
    "$work/data/Promotions.plist" > "$work/bad.plist"
"$venv/bin/python" - "$root/Scale/spark" "$checkout" "$work/bad.plist" "$work/data/Products.json" <<'PY'
import sys, threading
sys.path.insert(0, sys.argv[1])
from price_carts import run_checkout
command = [sys.argv[2], "price", "-", "--batch", "--format", "json", "--at", "2026-06-01T12:00:00Z",
           "--promotions", sys.argv[3], "--catalog", sys.argv[4]]
outcome = []
def run():
    try:
        list(run_checkout([b'["P0001"]'] * 1000, command))
        outcome.append("no error")
    except RuntimeError as error:
        outcome.append(str(error))
thread = threading.Thread(target=run, daemon=True)
thread.start()
thread.join(120)
assert outcome, "run_checkout hung on a full standard error"
assert outcome[0].startswith("checkout exited 65: "), outcome[0][:200]
print("a partition whose rules are refused fails at once, with checkout's message")
PY
if "$venv/bin/spark-submit" --master 'local[1]' --conf spark.ui.enabled=false "$root/Scale/spark/price_carts.py" \
    --checkout "$checkout" --promotions "$work/bad.plist" --catalog "$work/data/Products.json" \
    --carts "file://$work/carts.ndjson" --at "$at" --output "file://$work/refused" > "$work/refused.log" 2>&1; then
    echo "the job ran with rules checkout refuses"; exit 1
fi
grep -q "checkout refused the rules (exit 65); nothing was priced" "$work/refused.log"
grep -q "$work/bad.plist:" "$work/refused.log"  # the diagnostics name the file as given
[ ! -e "$work/refused" ]
echo "rules checkout refuses stop the job on the driver, before any task: nothing written"
echo "local batch: ${local_seconds}s; spark local[2]: ${spark_seconds}s (JVM start-up included) for $((carts + 3)) carts"
