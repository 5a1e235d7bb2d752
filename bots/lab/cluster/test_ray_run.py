"""The cluster runner against a real Ray cluster: a local head with 2 CPUs, started here
and stopped afterwards. Run by `make test` where Ray is installed (RAY_PYTHON), from the
repository root after `make build`:

    target/ray-venv/bin/python -m unittest bots/lab/cluster/test_ray_run.py

Each run is compared with the same run made on this machine without Ray: a datagen run's
merged file byte for byte, a match's games (openings, colours and moves, at a node
budget, so that they do not depend on time) and its summary.
"""

import json
import os
import socket
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = "target/release"
RAY = os.path.join(os.path.dirname(sys.executable), "ray")
# Both sides search a fixed number of iterations: the games are the same on any machine.
BOT_A = f"{BIN}/dots --engine uct --nodes 300 --seed 1"
BOT_B = f"{BIN}/dots --engine uct --nodes 300 --seed 2"
MATCH = ["dots", "--a", BOT_A, "--b", BOT_B, "--games", "8", "--openings", "4", "--seed", "9", "--time-ms", "5000"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def driver(*args, address):
    env = dict(os.environ, RAY_ADDRESS=address)
    command = [sys.executable, os.path.join(HERE, "ray_run.py"), *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)


def games(log):
    """A log's games by their number: (opening, A first, moves), and how many lines."""
    with open(log) as f:
        lines = [json.loads(line) for line in f]
    return {g["game"]: (g["opening"], g["a_first"], [t["move"] for t in g["moves"]]) for g in lines}, len(lines)


def summary(log):
    out = subprocess.run([f"{BIN}/arena", "summary", log, "--json"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


class RayCluster(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        for name in ("arena", "dots", "ataxx-net"):
            if not os.access(f"{BIN}/{name}", os.X_OK):
                raise unittest.SkipTest(f"{BIN}/{name} is missing: make build first")
        cls.tmp = tempfile.mkdtemp(prefix="ray-run-test-")
        port = free_port()
        cls.address = f"127.0.0.1:{port}"
        start = [RAY, "start", "--head", "--num-cpus", "2", "--port", str(port), "--include-dashboard", "false",
                 "--disable-usage-stats", "--node-ip-address", "127.0.0.1"]
        subprocess.run(start, check=True, capture_output=True, timeout=120)
        # The same match, unsharded, on this machine.
        cls.whole = os.path.join(cls.tmp, "whole.jsonl")
        subprocess.run([f"{BIN}/arena", *MATCH, "--quiet", "--log", cls.whole], check=True, capture_output=True)

    @classmethod
    def tearDownClass(cls):
        subprocess.run([RAY, "stop"], capture_output=True, timeout=120)

    def test_a_sharded_datagen_run_writes_the_file_one_machine_writes(self):
        args = ["--games", "8", "--nodes", "300", "--seed", "3"]
        here, there = os.path.join(self.tmp, "here.bin"), os.path.join(self.tmp, "there.bin")
        subprocess.run([f"{BIN}/ataxx-net", "datagen", "--out", here, *args], check=True, capture_output=True)
        run = driver("--shards", "4", "datagen", "ataxx-net", "datagen", "--out", there, *args, address=self.address)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIn("shards 4/4", run.stderr)
        with open(here, "rb") as a, open(there, "rb") as b:
            self.assertEqual(a.read(), b.read())

    def test_a_sharded_match_plays_the_games_of_the_whole_match(self):
        log = os.path.join(self.tmp, "sharded.jsonl")
        run = driver("--shards", "4", "match", *MATCH, "--log", log, address=self.address)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIn("8 games of dots", run.stdout)
        self.assertEqual(games(log), games(self.whole))
        for field in ("games", "wins_a", "draws", "losses_a", "elo"):
            self.assertEqual(summary(log)[field], summary(self.whole)[field], field)

    def test_a_shard_whose_worker_is_killed_runs_again_and_counts_once(self):
        log, marker = os.path.join(self.tmp, "killed.jsonl"), os.path.join(self.tmp, "killed-marker")
        run = driver("--shards", "4", "--kill-once", f"2:{marker}", "match", *MATCH, "--log", log,
                     address=self.address)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertTrue(os.path.exists(marker), "the worker of shard 2 was not killed")
        # Every game once (8 lines, 8 numbers), and the same games as the whole match.
        self.assertEqual(games(log), (games(self.whole)[0], 8))

    def test_bad_runs_are_refused_before_any_game(self):
        log = os.path.join(self.tmp, "never.jsonl")
        cases = [
            (["--shards", "3", "match", *MATCH, "--log", log], "does not divide the 4 pairs"),
            (["match", "dots", "--a", "no/such/bot", "--b", BOT_B, "--games", "2", "--log", log],
             "bot A's program no/such/bot cannot be found"),
            (["--address", "127.0.0.1:1", "match", *MATCH, "--log", log], "cannot reach the Ray cluster"),
            (["datagen", "ataxx-net", "datagen", "--games", "4"], "--out FILE is needed"),
        ]
        for args, why in cases:
            run = driver(*args, address=self.address)
            self.assertEqual(run.returncode, 2, f"{args}: {run.stderr}")
            self.assertIn(why, run.stderr, args)
            self.assertFalse(os.path.exists(log), args)


class PathRewriting(unittest.TestCase):
    def test_only_paths_that_start_in_the_bin_folder_go_to_the_workers_copy(self):
        sys.path.insert(0, HERE)
        from ray_run import rewrite_paths

        bin_dirs = ["/repo/target/release", "target/release"]
        args = ["target/release/dots --nodes 3", "uai:target/release/ataxx --uai", "--log=target/release/x",
                "gtp:/repo/target/release/nogo --gtp", "uai:../peers/Zataxx/target/release/zataxx"]
        self.assertEqual(rewrite_paths(args, bin_dirs, "/w"), [
            "/w/dots --nodes 3", "uai:/w/ataxx --uai", "--log=/w/x", "gtp:/w/nogo --gtp",
            "uai:../peers/Zataxx/target/release/zataxx",  # another program's folder: kept
        ])


if __name__ == "__main__":
    unittest.main()
