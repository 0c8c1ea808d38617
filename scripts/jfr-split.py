#!/usr/bin/env python3
"""Splits the jdk.ExecutionSample events of JFR files (e.g. bench-throughput.sh --cluster --jfr DIR) by part: the
first frame from the top of each stack that belongs to a known part decides (JDK frames under a Kryo call count as
Kryo). Prints the parts, the threads and the top frames. Needs the JDK's `jfr` tool. Usage: jfr-split.py FILE.jfr..."""
import json, re, subprocess, sys, collections

CATS = [
    ("Kryo/serialization", ("com.esotericsoftware.", "org.apache.storm.serialization.", "org.objenesis.", "dev.bullet.storm.serialization.")),
    ("netty/transfer", ("org.apache.storm.shade.io.netty.", "org.apache.storm.messaging.", "org.apache.storm.utils.TransferDrainer",
                        "org.apache.storm.daemon.worker.WorkerTransfer", "org.apache.storm.executor.ExecutorTransfer",
                        "org.apache.storm.daemon.worker.WorkerState")),
    ("acking", ("org.apache.storm.daemon.Acker", "org.apache.storm.utils.RotatingMap")),
    ("Kafka client", ("org.apache.kafka.",)),
    ("Bullet engine", ("dev.bullet.",)),
    ("metrics", ("org.apache.storm.metric", "com.codahale.")),
    ("Storm executor/queues", ("org.apache.storm.",)),
]

def category(frames):
    for f in frames:
        name = f["method"]["type"]["name"].replace("/", ".")
        for cat, prefixes in CATS:
            if name.startswith(prefixes):
                return cat
    return "JDK/other"

def frames_of(path):
    try:
        out = subprocess.run(["jfr", "print", "--json", "--stack-depth", "40", "--events", "jdk.ExecutionSample", path],
                             capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit(f"jfr-split: the JDK's jfr tool could not read {path}: {getattr(e, 'stderr', None) or e}")
    for e in json.loads(out)["recording"]["events"]:
        st = e["values"].get("stackTrace")
        thread = (e["values"].get("sampledThread") or {}).get("javaName") or ""
        yield thread, (st or {}).get("frames") or []

if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
    print(__doc__)
    sys.exit(0 if len(sys.argv) > 1 else 2)
for path in sys.argv[1:]:
    try:
        open(path, "rb").close()
    except OSError as e:
        sys.exit(f"jfr-split: cannot read {path}: {e.strerror}")

total = collections.Counter(); top = collections.Counter(); threads = collections.Counter(); n = 0
for path in sys.argv[1:]:
    for thread, frames in frames_of(path):
        c = category(frames); total[c] += 1; n += 1
        if frames:
            f = frames[0]["method"]; top[(c, f["type"]["name"].replace("/", ".") + "." + f["name"])] += 1
        t = re.sub(r"-executor\[.*", "", re.sub(r"^Thread-\d+-", "", thread or "?"))
        threads[re.sub(r"\d+", "N", t)] += 1
print(f"samples {n}")
for c, k in total.most_common():
    print(f"{c:24s} {k:7d} {100.0*k/n:5.1f} %")
print("\nthreads:")
for t, k in threads.most_common(15):
    print(f"{100.0*k/n:5.1f} %  {t}")
print("\ntop frames:")
for (c, m), k in top.most_common(25):
    print(f"{100.0*k/n:5.1f} %  {c:22s} {m}")
