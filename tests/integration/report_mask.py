#!/usr/bin/env python3
"""report_mask.py FORMAT < report > masked: replace what a golden file must
not pin down (timings, the version, ports, dates) by placeholders, so that
golden files check the layout and every non-timing fact."""
import csv
import io
import re
import sys

fmt = sys.argv[1]
text = sys.stdin.read()

# Ports of the servers of the run the input came from, and dates.
text = re.sub(r"(\.test|127\.0\.0\.1):\d+", r"\1:PORT", text)
text = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z", "DATE", text)
text = re.sub(r"hopsplit[ /]\d+\.\d+\.\d+", "hopsplit VERSION", text)

if fmt == "text":
    # Durations with a unit, and bare decimals (ms columns).
    text = re.sub(r"(?<![\w.])[+-]?\d+(\.\d+)?\s?(µs|us|ms|s)\b", "T",
                  text)
    text = re.sub(r"(?<![\w.])[+-]?\d+\.\d+(?![\w.])", "T", text)
    # Waterfall bars: their lengths are timings.
    text = re.sub(r"[░▒▓▌─█]+", "#", text)
    text = re.sub(r"(?m)^(  \d+ \S+) +#[ #]*$", r"\1 #", text)
elif fmt == "csv":
    rows = list(csv.reader(io.StringIO(text, newline="")))
    head = rows[0]
    timing = {i for i, c in enumerate(head) if c.endswith("_us")}
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow(head)
    for r in rows[1:]:
        w.writerow(["T" if i in timing and v not in ("", "0") else v
                    for i, v in enumerate(r)])
    text = buf.getvalue()
elif fmt == "prom":
    text = re.sub(r"(?m)^(hopsplit_\w*seconds\{[^}]*\}) \S+$", r"\1 T", text)
    text = re.sub(r"(?m)^(hopsplit_run_finished_timestamp_seconds) \S+$",
                  r"\1 T", text)
sys.stdout.write(text)
