"""Prices NDJSON carts on Apache Spark: each partition is piped through `checkout price --batch -`.

Pricing is per cart and needs nothing but the rule set, so Spark only has to cut the input into
partitions, ship the binary and the two rule files to the executors, and collect the receipts. Each
receipt starts with its cart's id (give carts an "id"), so receipts join back to orders without
trusting line order. An error entry's "line" counts within its partition; join those by id too.

  spark-submit --master MASTER Scale/spark/price_carts.py \\
      --checkout ./checkout --promotions Rules/Promotions.plist --catalog Rules/Products.json \\
      --carts 's3a://bucket/carts/2026-11/*.ndjson' --at 2026-12-01T00:00:00Z \\
      --output s3a://bucket/receipts/2026-11 --summary summary.json

Writes the receipts (NDJSON, one file per partition) under --output, and a summary: carts, failures,
revenue, and each promotion's discount and the carts it applied to.
"""
import argparse
import json
import os
import stat
import subprocess
import sys
import tempfile
import threading
from decimal import Decimal

from pyspark import SparkFiles
from pyspark.sql import SparkSession


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkout", required=True, help="the checkout binary to ship to the executors")
    parser.add_argument("--promotions", required=True, help="Promotions.plist")
    parser.add_argument("--catalog", required=True, help="Products.json")
    parser.add_argument("--carts", required=True, help="NDJSON carts: any path or glob Spark reads (file:///, hdfs://, s3a://)")
    parser.add_argument("--at", required=True, help="the instant every cart is priced at (RFC 3339): the same on every executor")
    parser.add_argument("--output", required=True, help="where the receipts go (a directory Spark writes)")
    parser.add_argument("--summary", help="a local file for the summary JSON (default: standard output)")
    parser.add_argument("--partitions", type=int, default=None, help="at least this many partitions")
    return parser.parse_args(argv)


def pipe_partition(lines, checkout, promotions, catalog, at):
    """Runs checkout on one partition's lines (bytes, as read) and yields its NDJSON output, in order."""
    binary = SparkFiles.get(checkout)
    os.chmod(binary, os.stat(binary).st_mode | stat.S_IXUSR)
    command = [binary, "price", "-", "--batch", "--format", "json", "--at", at,
               "--promotions", SparkFiles.get(promotions), "--catalog", SparkFiles.get(catalog)]
    return run_checkout(lines, command)


def run_checkout(lines, command):
    """Pipes `lines` (bytes, without their line ends) through `command` and yields its output lines.

    Standard error goes to a file, not a pipe: checkout may write more diagnostics there than a pipe
    holds before it writes any receipt, and a pipe read only at the end would then wait forever.
    """
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors)

        def feed():
            try:
                for line in lines:
                    process.stdin.write(line + b"\n")
            except BrokenPipeError:
                pass  # checkout stopped reading (it refused the rules): its exit status says why
            finally:
                try:
                    process.stdin.close()
                except BrokenPipeError:
                    pass

        writer = threading.Thread(target=feed, daemon=True)
        writer.start()
        for raw in process.stdout:
            yield raw.decode("utf-8").rstrip("\n")
        writer.join()
        # 0: every cart priced; 1: some carts are error entries in the output. Anything else stops the
        # job: never a partial result written as if complete.
        if process.wait() not in (0, 1):
            errors.seek(0)
            text = errors.read(65536).decode("utf-8", "replace").strip()
            raise RuntimeError(f"checkout exited {process.returncode}: {text}")


def check_rules(checkout, promotions, catalog, at):
    """Prices an empty batch with the rules on the driver, so that rules checkout refuses stop the job
    before it starts, with the files' own paths. Skipped when the driver cannot run the binary (one
    built for the executors' system)."""
    command = [checkout, "price", "-", "--batch", "--format", "json", "--at", at,
               "--promotions", promotions, "--catalog", catalog]
    try:
        result = subprocess.run(command, input=b"", capture_output=True)
    except OSError:
        return
    if result.returncode not in (0, 1):
        sys.stderr.write(result.stderr.decode("utf-8", "replace"))
        sys.exit(f"checkout refused the rules (exit {result.returncode}); nothing was priced")


def summarize(receipts):
    """carts, failures, revenue and per-promotion figures of an RDD of receipt lines."""

    def one(line):
        receipt = json.loads(line)
        if "error" in receipt:
            return (1, 1, Decimal(0), {})
        applied = {}
        for item in receipt["lines"]:
            for promotion in item.get("promotions", []):
                applied.setdefault(promotion["id"], Decimal(0))
                applied[promotion["id"]] += Decimal(promotion["discount"])
        if receipt.get("cart_promotion"):
            cart = receipt["cart_promotion"]
            applied[cart["id"]] = applied.get(cart["id"], Decimal(0)) + Decimal(cart["discount"])
        return (1, 0, Decimal(receipt["total"]), {key: (1, value) for key, value in applied.items()})

    def merge(a, b):
        promotions = dict(a[3])
        for key, (carts, discount) in b[3].items():
            old = promotions.get(key, (0, Decimal(0)))
            promotions[key] = (old[0] + carts, old[1] + discount)
        return (a[0] + b[0], a[1] + b[1], a[2] + b[2], promotions)

    carts, failures, revenue, promotions = receipts.map(one).fold((0, 0, Decimal(0), {}), merge)
    return {
        "carts": carts,
        "failures": failures,
        "revenue": str(revenue),
        "promotions": [{"id": key, "carts": promotions[key][0], "discount": str(promotions[key][1])} for key in sorted(promotions)],
    }


def main(argv):
    args = parse_arguments(argv)
    # A summary left from an earlier run must not look like this one's if this one fails.
    if args.summary and os.path.exists(args.summary):
        os.remove(args.summary)
    check_rules(args.checkout, args.promotions, args.catalog, args.at)
    spark = SparkSession.builder.appName("checkout price").getOrCreate()
    context = spark.sparkContext
    for path in (args.checkout, args.promotions, args.catalog):
        context.addFile(path)
    names = [os.path.basename(path) for path in (args.checkout, args.promotions, args.catalog)]
    # Carts as checkout reads them: lines end at "\n" only (a bare CR is JSON white space inside a
    # cart, which Hadoop's default reader would take for a line end), passed on as UTF-8 bytes.
    # Spark's reader has already decoded them: bytes that are not UTF-8 reach checkout as U+FFFD
    # (docs/scale-out.md says so).
    context._jsc.hadoopConfiguration().set("textinputformat.record.delimiter", "\n")
    carts = context.textFile(args.carts, minPartitions=args.partitions, use_unicode=False)
    receipts = carts.mapPartitions(lambda lines: pipe_partition(lines, names[0], names[1], names[2], args.at)).cache()
    receipts.saveAsTextFile(args.output)
    summary = json.dumps(summarize(receipts), indent=2)
    if args.summary:
        with open(args.summary, "w") as out:
            out.write(summary + "\n")
    else:
        print(summary)
    spark.stop()


if __name__ == "__main__":
    main(sys.argv[1:])
