"""Recorder overhead, measured side by side in one run.

    python3 bench/record/record_bench.py [--msprof-record PATH] [--runs 3] [--small-runs 15]
                                         [--also "OPTIONS"]... [--compare PATH]...

For 64 MiB and 1 MiB buffers (8 ranges of 6 kernels), then 16 MiB buffers
whose ranges also write one buffer from the host (no target: what copying
the program's own bytes costs), in --runs interleaved
rounds (--small-runs for the 1 MiB case, a program of under a second whose
figures need more rounds to settle) of one plain and one recorded run: the best wall time of the whole
program each, their ratio, the ratio of the medians, the ratio of the time
the program measures around its ranges alone ("work_s"), captured bytes per
second of added time, and trace size / captured bytes; then every round's
pair of times and the median of the paired ratios (each recorded run against
the plain run of its round), the wall-time figure least moved by the
machine's drift, against the target (1.3 for 64 MiB, 1.1 for 1 MiB); and the
CPU seconds (user + system) and minor page faults recording adds, and the time the program's own
threads spent in the recorder (the launcher's summary; a snapshot that
waits for room under --memory-bound waits there). Each case starts with one
plain run, untimed (a warm-up). Each recorded run writes a new
trace: the previous round's is removed before it, untimed.
Then the cost of ranges that are never captured again: the same work with
every range executed 20 times, with and without mstx annotations, recorded
against plain.

--also "--memory-bound 256M" (repeatable) adds a recorded run with those
msprof-record options to every round, right after the default one, and a
row for it to every table: a recorder setting judged against the default
in the same rounds, not in another hour of a drifting machine. --compare
PATH (repeatable) does the same for another build's msprof-record.
"""
import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def run(cmd, env=None):
    """Wall seconds, stdout, stderr, the CPU seconds (user + system) the
    command and its children used, and their minor page faults."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit(f"record_bench: {' '.join(cmd)} failed: {p.stderr.strip()[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, p.stdout, p.stderr, cpu, after.ru_minflt - before.ru_minflt


def best(n, fn):
    results = [fn() for _ in range(n)]
    return min(results, key=lambda r: r[0])


def median(xs):
    return sorted(xs)[len(xs) // 2]


def add_case(name, plains, recs, trace, target, rows, pairs):
    """One table row and one round-by-round entry: the recorded runs `recs`
    (their last trace at `trace`) against the plain runs of the same rounds."""
    plain = min(plains, key=lambda r: r[0])
    rec = min(recs, key=lambda r: r[0])
    m = re.search(r"([\d.]+) (B|KiB|MiB|GiB) snapshotted", rec[2])
    scale = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}
    captured = float(m.group(1)) * scale[m.group(2)] if m else float("nan")
    size = os.path.getsize(trace)
    added = rec[0] - plain[0]
    assert plain[1].split()[-1] == rec[1].split()[-1], "recorded run computed something else"
    work = lambda r: float(r[1].split()[1])  # noqa: E731
    # Each recorded run against the plain run of its round: the machine's
    # speed drifts (other programs), and a pair shares most of the drift.
    paired = sorted(r[0] / p[0] for p, r in zip(plains, recs))
    # CPU seconds added: what the recorder costs the machine, which the
    # wall-time drift of a shared host moves much less.
    cpu_added = median([r[3] for r in recs]) - median([p[3] for p in plains])
    cpu_ratio = median([r[3] for r in recs]) / median([p[3] for p in plains])
    # Fresh memory the recorder touched: on a VM each page is slow to back.
    faults_added = median([r[4] for r in recs]) - median([p[4] for p in plains])
    # What the launcher reports the program's own threads spent in the
    # recorder (snapshot buffers, device reads, records): the part of the
    # cost no other core can take.
    blocked = [re.search(r"([\d.]+) ms spent capturing in the program", r[2]) for r in recs]
    blocked_ms = median([float(b.group(1)) for b in blocked]) if all(blocked) else float("nan")
    pairs.append((name, [p[0] for p in plains], [r[0] for r in recs], paired, cpu_added, cpu_ratio,
                  target, blocked_ms, faults_added))
    rows.append((f"{name} x 3 buffers x 8 ranges", plain[0], rec[0], rec[0] / plain[0],
                 median([r[0] for r in recs]) / median([r[0] for r in plains]),
                 min(work(r) for r in recs) / min(work(r) for r in plains),
                 captured / added / (1 << 20) if added > 0 else float("inf"), size / captured))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--msprof-record", default=shutil.which("msprof-record") or "msprof-record")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--small-runs", type=int, default=15)
    ap.add_argument("--also", action="append", default=[], metavar="OPTIONS",
                    help="msprof-record options for an extra recorded run in every round")
    ap.add_argument("--compare", action="append", default=[], metavar="PATH",
                    help="another msprof-record build for an extra recorded run in every round")
    args = ap.parse_args()
    # (label, msprof-record, its extra options), the default first.
    configs = ([("", args.msprof_record, [])] +
               [(f" [{a}]", args.msprof_record, a.split()) for a in args.also] +
               [(f" [{c}]", c, []) for c in args.compare])
    workload = os.path.join(HERE, "workload.py")
    # The interpreter itself, not whatever "python3" on PATH is: a version
    # manager's shim (pyenv's runs bash scripts first) adds a fixed time to
    # each run, recorded or not, which makes every ratio smaller than the
    # program's own.
    python = sys.executable
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "recorder", "python"))
    tmp = tempfile.mkdtemp(prefix="record-bench-")
    trace = os.path.join(tmp, "bench.fb")
    rows, pairs = [], []
    # (name, MiB, workload options, rounds, target): the two cases,
    # then one without a target whose ranges also write a buffer from the
    # host, for the cost of copying the program's own bytes.
    cases = [("64 MiB", 64, [], args.runs, 1.3), ("1 MiB", 1, [], args.small_runs, 1.1),
             ("16 MiB, host writes", 16, ["--host-writes"], args.runs, None)]
    for name, mib, options, rounds, target in cases:
        wl = [python, workload, "--mib", str(mib), "--ranges", "8"] + options
        # One plain run first, untimed: on a VM the first program to touch
        # this much memory has the host back it, fresh (much slower than the
        # runs after it), and that would be one round's pair, measuring the
        # host.
        run(wl, env)
        # Interleaved rounds: a burst of other work on the machine slows one
        # round of every run, not every run of one of them. The order turns
        # each round: on a VM a run starts faster right after one that had
        # the host back much memory (the guest reuses those pages), which
        # would otherwise always favour the same run.
        plains, recs = [], [[] for _ in configs]
        for k in range(rounds):
            slots = list(range(-1, len(configs)))
            for i in slots[k % len(slots):] + slots[:k % len(slots)]:
                if i < 0:
                    plains.append(run(wl, env))
                    continue
                out = os.path.join(tmp, f"bench{i}.fb")
                _, tool, extra = configs[i]
                # The last round's trace goes first, untimed: replacing it
                # (-f) would time the filesystem freeing it, not the
                # recording.
                if os.path.exists(out):
                    os.remove(out)
                recs[i].append(run([tool, "-f", "-o", out] + extra + ["--"] + wl))
        for i, (label, _, _) in enumerate(configs):
            out = os.path.join(tmp, f"bench{i}.fb")
            add_case(f"{name}{label}", plains, recs[i], out, target, rows, pairs)
    print(f"{'case':62} {'plain s':>8} {'recorded s':>11} {'ratio':>6} {'median ratio':>13} "
          f"{'ranges-only ratio':>18} {'captured MiB/s added':>21} {'trace/captured':>15}")
    for r in rows:
        print(f"{r[0]:62} {r[1]:8.2f} {r[2]:11.2f} {r[3]:6.2f} {r[4]:13.2f} {r[5]:18.2f} "
              f"{r[6]:21.0f} {r[7]:15.3f}")

    print("\nround by round (plain s / recorded s), and the median of the paired ratios:")
    for name, p, r, paired, _, _, target, _, _ in pairs:
        rounds = ", ".join(f"{a:.2f}/{b:.2f}" for a, b in zip(p, r))
        median = paired[len(paired) // 2]
        if target is None:
            verdict = "no target"
        else:
            verdict = f"target <= {target}: " + ("ok" if median <= target else "MISSED")
        print(f"  {name}: {rounds}; paired ratios {', '.join(f'{x:.2f}' for x in paired)};"
              f" median {median:.2f}, {verdict}")
    print("\nCPU (user + system, all processes) and minor page faults, medians: what recording adds")
    for name, _, _, _, added, ratio, _, _, faults in pairs:
        print(f"  {name}: {added:+.2f} CPU s, recorded / plain {ratio:.2f}; {faults / 1000:+.1f}K page faults")
    print("\ntime the program's threads spent in the recorder (its summary: waits for room under"
          " --memory-bound included), median")
    for name, _, _, _, _, _, _, blocked_ms, _ in pairs:
        print(f"  {name}: {blocked_ms:.1f} ms")

    # Ranges never captured again: 20 repeats, the work alone (work_s).
    wl = [python, workload, "--mib", "1", "--ranges", "8", "--repeat", "20"]
    plain = best(args.runs, lambda: run(wl + ["--no-mstx"], env))
    once = best(args.runs, lambda: run([args.msprof_record, "-q", "-f", "-o", trace, "--"] + wl))
    w_plain = float(plain[1].split()[1])
    w_rec = float(once[1].split()[1])
    print(f"\nrepeated ranges (1 MiB, 8 ranges x 20, first execution captured): plain work {w_plain:.3f} s,"
          f" recorded work {w_rec:.3f} s, ratio {w_rec / w_plain:.2f}")
    wl1 = [python, workload, "--mib", "1", "--ranges", "8", "--repeat", "1"]
    one = best(args.runs, lambda: run([args.msprof_record, "-q", "-f", "-o", trace, "--"] + wl1))
    per_rep_rec = (w_rec - float(one[1].split()[1])) / 19
    per_rep_plain = w_plain / 20
    print(f"per later repetition: plain {per_rep_plain * 1e3:.2f} ms, recorded {per_rep_rec * 1e3:.2f} ms"
          f" (ratio {per_rep_rec / per_rep_plain:.2f})")
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
