#!/usr/bin/env python3
"""Runs a match or a self-play datagen run on a Ray cluster, one shard a task.

    ray_run.py [--shards N] match ARENA_ARGS...          e.g. ataxx --a BOT --b BOT2 --games 200 --log m.jsonl
    ray_run.py [--shards N] datagen TOOL DATAGEN_ARGS... e.g. ataxx-net datagen --out d.bin --games 4000

The work is split with the tools' own `--shard K/N` (the arena's whole pairs, the data
tools' consecutive games), so shard K plays exactly what it plays in the whole run. Each
shard is a Ray task holding one CPU (one core a game, as on Botzone): the arena runs with
`--jobs 1`, a data tool with `--threads 1`. The release binaries of `--bin-dir` go to the
workers through Ray's object store (no shared disk needed) and are written once per node;
a command's paths into `--bin-dir` are rewritten to the worker's copy. A shard whose
worker dies is run again from its start (its partial output is dropped), so no game is
counted twice. The merged log (match) or file (datagen) is the shards' outputs in shard
order: for a datagen run byte for byte the file one machine writes; for a match the same
games, summed up by `arena summary`.

Connects to RAY_ADDRESS (or --address); with neither, starts a Ray instance on this
machine for the run. Only Ray itself is needed here (requirements.txt); nothing on a
worker but Ray and Python.
"""

import argparse
import hashlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

import ray

TASK_CPUS = 1


class RunError(Exception):
    """A run that cannot start or a shard that failed by itself (not by a lost worker)."""


def option_value(args, name):
    """The value of `--name VALUE` or `--name=VALUE` in a command line, or None."""
    for i, arg in enumerate(args):
        if arg == name and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith(name + "="):
            return arg[len(name) + 1:]
    return None


def replace_option(args, name, value):
    """The command line with `--name`'s value replaced (appended when absent)."""
    out, i, found = [], 0, False
    while i < len(args):
        if args[i] == name and i + 1 < len(args):
            out += [name, value]
            i, found = i + 2, True
        elif args[i].startswith(name + "="):
            out.append(f"{name}={value}")
            i, found = i + 1, True
        else:
            out.append(args[i])
            i += 1
    return out if found else out + [name, value]


def plan(kind, command):
    """Checks a run's command before anything starts: what it writes and how many games.

    Returns (program, args, output option, output path, games in the run)."""
    if kind == "match":
        program, args, out_option = "arena", command, "--log"
        if not args or args[0] not in ("ataxx", "nogo", "dots"):
            raise RunError("match: the arena's arguments start with the game (ataxx, nogo or dots)")
        for refused in ("--shard", "--sprt", "--jobs"):
            if option_value(args, refused) is not None:
                raise RunError(f"match: {refused} is the driver's to set (one game a task, whole shards)")
    else:
        if len(command) < 2 or command[1] != "datagen":
            raise RunError("datagen: give the tool and its datagen arguments, e.g. ataxx-net datagen --out F --games N")
        program, args, out_option = command[0], command[1:], "--out"
        for refused in ("--shard", "--threads"):
            if option_value(args, refused) is not None:
                raise RunError(f"datagen: {refused} is the driver's to set (one thread a task)")
    out = option_value(args, out_option)
    if out is None:
        raise RunError(f"{kind}: {out_option} FILE is needed: the merged result is written there")
    games_text = option_value(args, "--games") or ("2" if kind == "match" else None)
    if games_text is None or not games_text.isdigit() or int(games_text) == 0:
        raise RunError(f"{kind}: --games N (N >= 1) is needed")
    return program, args, out_option, out, int(games_text)


def units(kind, games):
    """What shards split: a match's pairs (an opening, colours swapped), a run's games."""
    return (games + 1) // 2 if kind == "match" else games


def check_shards(kind, games, shards):
    if shards < 1:
        raise RunError("--shards must be at least 1")
    if units(kind, games) % shards != 0:
        what = f"the {units(kind, games)} pairs of {games} games" if kind == "match" else f"its {games} games"
        raise RunError(f"--shards {shards} does not divide {what}: choose a divisor")


def read_binaries(bin_dir, program):
    """Every executable file of the bin folder, by name; the run's program must be there."""
    bins = {}
    for name in sorted(os.listdir(bin_dir)):
        path = os.path.join(bin_dir, name)
        if os.path.isfile(path) and os.access(path, os.X_OK) and "." not in name:
            with open(path, "rb") as f:
                bins[name] = f.read()
    if program not in bins:
        raise RunError(f"{program} is not in {bin_dir}: build it first (make build)")
    return bins


def dying_with_the_worker(command):
    """The command run so that it is killed when the worker that starts it dies (Linux's
    parent-death signal, set by util-linux's `setpriv`), so that a lost worker's arena does
    not play on unseen; as it is where `setpriv` is missing. (Setting the signal in a
    `preexec_fn` is unsafe in a Ray worker, which runs threads.)"""
    setpriv = shutil.which("setpriv")
    return [setpriv, "--pdeathsig", "KILL", "--", *command] if setpriv else command


def materialise(bins, digest):
    """The shipped binaries in a folder of this node, written once per node and run."""
    root = os.path.join(tempfile.gettempdir(), "botzone-ray-bins")
    folder = os.path.join(root, digest)
    if not os.path.isdir(folder):
        os.makedirs(root, exist_ok=True)
        staging = tempfile.mkdtemp(prefix="staging-", dir=root)
        for name, data in bins.items():
            path = os.path.join(staging, name)
            with open(path, "wb") as f:
                f.write(data)
            os.chmod(path, 0o755)
        try:
            os.rename(staging, folder)
        except OSError:
            shutil.rmtree(staging, ignore_errors=True)  # another task of this node was first
    return folder


def rewrite_paths(args, bin_dirs, folder):
    """Each argument with the driver's bin folder (as given or absolute) replaced by the
    worker's copy where a path starts with it: bots' command lines inside --a and --b
    included (after a space, `uai:` or `gtp:`), but not another program's folder that
    ends the same way (`../peers/Zataxx/target/release/zataxx` stays as it is)."""
    out = []
    for arg in args:
        for bin_dir in bin_dirs:
            start = re.compile(r"(^|[\s=]|uai:|gtp:)" + re.escape(bin_dir.rstrip("/") + "/"))
            arg = start.sub(lambda m: m.group(1) + folder + "/", arg)
        out.append(arg)
    return out


@ray.remote(num_cpus=TASK_CPUS)
def run_shard(spec, bins, kill_marker):
    """One shard, from its start: returns (shard, output bytes, seconds, host, the tool's
    last line)."""
    started = time.time()
    folder = materialise(bins, spec["digest"])
    work = tempfile.mkdtemp(prefix=f"shard{spec['shard']}-")
    out = os.path.join(work, "out")
    args = rewrite_paths(spec["args"], spec["bin_dirs"], folder)
    args = replace_option(args, spec["out_option"], out)
    shard = f"{spec['shard']}/{spec['shards']}"
    if spec["kind"] == "match":
        command = [os.path.join(folder, "arena")] + args + ["--shard", shard, "--jobs", "1", "--quiet"]
    else:
        command = [os.path.join(folder, spec["program"])] + args + ["--shard", shard, "--threads", "1"]
    child = subprocess.Popen(dying_with_the_worker(command), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if kill_marker and spec["shard"] == kill_marker["shard"] and not os.path.exists(kill_marker["path"]):
        # The fault test: this worker dies once, mid-run, after its first game is logged.
        open(kill_marker["path"], "w").close()
        while child.poll() is None and not (os.path.exists(out) and os.path.getsize(out) > 0):
            time.sleep(0.05)
        os.kill(os.getpid(), signal.SIGKILL)
    stdout, stderr = child.communicate()
    if child.returncode != 0:
        tool = os.path.basename(command[0])
        raise RunError(f"shard {shard}: {tool} exited with {child.returncode}: {stderr.strip()}")
    with open(out, "rb") as f:
        data = f.read()
    shutil.rmtree(work, ignore_errors=True)
    return spec["shard"], data, time.time() - started, os.uname().nodename, stdout.strip().splitlines()[-1:]


@ray.remote(num_cpus=0)
def check_worker(programs, bins, digest, bin_dirs):
    """Before any game: every program the command names exists on a worker (shipped ones
    are written here first)."""
    folder = materialise(bins, digest)
    missing = []
    for who, program in programs:
        path = rewrite_paths([program], bin_dirs, folder)[0]
        found = os.path.isfile(path) and os.access(path, os.X_OK) if "/" in path else shutil.which(path)
        if not found:
            missing.append(f"{who}'s program {program}")
    return os.uname().nodename, missing


def named_programs(kind, program, args, bin_dir):
    """(who, program) for the run's tool and, in a match, each bot's program."""
    programs = [(program, os.path.join(bin_dir, program))]
    if kind == "match":
        for side in ("--a", "--b"):
            line = option_value(args, side) or ""
            words = line.split()
            if words:
                first = words[0]
                for prefix in ("uai:", "gtp:"):
                    first = first[len(prefix):] if first.startswith(prefix) else first
                programs.append((f"bot {side[2:].upper()}", first))
    return programs


def summarise(arena, logs):
    """`arena summary --json` of the logs so far (the match's W-D-L and Elo interval)."""
    result = subprocess.run([arena, "summary", *logs, "--json"], capture_output=True, text=True)
    return json.loads(result.stdout) if result.returncode == 0 and result.stdout.strip() else None


def positions_in(lines):
    """The positions a data tool says it added (its last line)."""
    for line in lines:
        m = re.search(r"(\d+) positions added|added (\d+) positions", line)
        if m:
            return int(m.group(1) or m.group(2))
    return 0


def probe(address):
    """A cluster's head (`HOST:PORT`) that accepts connections: Ray itself retries an
    unreachable one for minutes before it gives up."""
    m = re.fullmatch(r"(?:ray://)?\[?([^\]]+?)\]?:(\d+)", address)
    if not m:
        return
    try:
        socket.create_connection((m.group(1), int(m.group(2))), timeout=5).close()
    except OSError as e:
        raise RunError(f"cannot reach the Ray cluster at {address}: {e}") from e


def connect(address):
    if address:
        probe(address)
    try:
        if address:
            ray.init(address=address, log_to_driver=False, logging_level="ERROR")
        else:
            ray.init(log_to_driver=False, logging_level="ERROR", include_dashboard=False)
    except Exception as e:  # Ray raises several kinds for an unreachable cluster
        raise RunError(f"cannot reach the Ray cluster at {address or 'a new local instance'}: {e}") from e


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--address", default=os.environ.get("RAY_ADDRESS"), help="the cluster (default: RAY_ADDRESS)")
    parser.add_argument("--bin-dir", default="target/release", help="the release binaries to ship")
    parser.add_argument("--shards", type=int, default=None,
                        help="tasks (default: the cluster's CPUs, or the most below them that divide the run)")
    parser.add_argument("--retries", type=int, default=3, help="times a shard is run again after its worker dies")
    # The fault test: shard K's worker kills itself once, mid-run, leaving the file PATH.
    parser.add_argument("--kill-once", metavar="K:PATH", default=None, help=argparse.SUPPRESS)
    parser.add_argument("kind", choices=["match", "datagen"])
    parser.add_argument("command", nargs=argparse.REMAINDER)
    opts = parser.parse_args(argv)
    try:
        return run(opts)
    except RunError as e:
        print(f"ray_run: {e}", file=sys.stderr)
        return 2


def run(opts):
    bin_dir = opts.bin_dir
    if not os.path.isdir(bin_dir):
        raise RunError(f"{bin_dir} is not a folder: build the binaries first (make build)")
    program, args, out_option, out, games = plan(opts.kind, opts.command)
    if opts.shards is not None:
        check_shards(opts.kind, games, opts.shards)
    bins = read_binaries(bin_dir, program)
    connect(opts.address)
    # By default as many shards as the cluster has CPUs, or the most below that divide.
    cpus = int(ray.cluster_resources().get("CPU", 1))
    shards = opts.shards or max(d for d in range(1, cpus + 1) if units(opts.kind, games) % d == 0)
    digest = hashlib.sha256(b"".join(name.encode() + data for name, data in bins.items())).hexdigest()[:16]
    bins_ref = ray.put(bins)
    bin_dirs = sorted({bin_dir, os.path.abspath(bin_dir)}, key=len, reverse=True)
    programs = named_programs(opts.kind, program, args, bin_dir)
    node, missing = ray.get(check_worker.remote(programs, bins_ref, digest, bin_dirs))
    if missing:
        raise RunError(f"on worker {node}: {', '.join(missing)} cannot be found (only {bin_dir} is shipped)")

    kill_marker = None
    if opts.kill_once is not None:
        k, path = opts.kill_once.split(":", 1)
        kill_marker = {"shard": int(k), "path": path}
    spec = {"kind": opts.kind, "program": program, "args": args, "out_option": out_option, "shards": shards,
            "digest": digest, "bin_dirs": bin_dirs}
    started = time.time()
    pending = {
        run_shard.options(max_retries=opts.retries).remote(dict(spec, shard=k), bins_ref, kill_marker): k
        for k in range(shards)
    }
    print(f"{opts.kind}: {games} games in {shards} shards on {cpus} CPUs", file=sys.stderr)
    # A match's shard logs so far, each written once to a scratch folder for `arena summary`.
    outputs, seconds, scratch, logs = {}, [], tempfile.mkdtemp(prefix="ray-run-"), []
    arena = os.path.join(bin_dir, "arena")
    positions = 0
    try:
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                pending.pop(ref)
                try:
                    shard, data, secs, host, last_line = ray.get(ref)
                except ray.exceptions.RayTaskError as e:
                    cause = e.cause if isinstance(getattr(e, "cause", None), RunError) else e
                    raise RunError(str(cause).strip().splitlines()[-1]) from e
                outputs[shard] = data
                seconds.append(secs)
                line = f"shards {len(outputs)}/{shards}"
                if opts.kind == "match":
                    logs.append(os.path.join(scratch, f"shard{shard}.jsonl"))
                    with open(logs[-1], "wb") as f:
                        f.write(data)
                    so_far = summarise(arena, logs)
                    if so_far:
                        lo, hi = so_far["elo_ci95"]
                        line += (f"  games {so_far['games']}/{games}  A {so_far['wins_a']}-{so_far['draws']}-"
                                 f"{so_far['losses_a']}  Elo {so_far['elo']:+.0f} [{lo:+.0f}, {hi:+.0f}]")
                else:
                    positions += positions_in(last_line)
                    line += f"  games {len(outputs) * games // shards}/{games}  positions {positions}"
                print(f"{line}  (shard {shard} on {host}, {secs:.1f} s)", file=sys.stderr)
    except BaseException:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    wall = time.time() - started
    with open(out, "wb") as f:
        for s in range(shards):
            f.write(outputs[s])
    print(f"wrote {out}: {shards} shards in {wall:.1f} s (shards took {min(seconds):.1f}-{max(seconds):.1f} s)",
          file=sys.stderr)
    if opts.kind == "match":
        result = subprocess.run([arena, "summary", out], capture_output=True, text=True)
        print(result.stdout, end="")
    else:
        print(f"{out}: {positions} positions from {games} games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
