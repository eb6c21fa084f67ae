"""Data-parallel training across processes (issue 21), each case launched with
`python -m wengert.distribute.run -n N` (mpiexec) from here with a timeout; the scripts live in
tests/mpi_scripts/ and write what each rank saw. Skipped without mpi4py and mpiexec
(`pip install "wengert[mpi]"`).

- 5 SGD steps on a fixed global batch at N = 1 and 4 (float64: rtol 1e-9) and N = 2 (float32:
  rtol 1e-5) give the weights of one process on the same global batch, bit-identical on every
  rank, through the strategy API (eager and traced steps), DistributedGradientTape, DistributedOptimizer and
  Keras fit; ranks that start from different random weights start equal after the broadcast;
- mismatched variables raise an error naming the rank and the variable; an exception on one
  rank ends every rank, non-zero, within 10 s;
- checkpoints are written once (by rank 0) and restore identically on every rank;
  BackupAndRestore resumes a distributed fit that died, ending where an uninterrupted fit ends;
- the Horovod-style collectives, sparse gradients, None gradients, join and the watchdog.
"""
import importlib.util
import json
import os
import pathlib
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from wengert.distribute.run import find_mpiexec

ROOT = pathlib.Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "tests" / "mpi_scripts"

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("mpi4py") is None or find_mpiexec() is None,
    reason='needs mpi4py and mpiexec: pip install "wengert[mpi]"')

_MPI_VARIABLES = ("OMPI_", "PMI_", "PMIX_", "PRTE_", "MPI_LOCALNRANKS")


def _environment():
    env = {k: v for k, v in os.environ.items() if not k.startswith(_MPI_VARIABLES)}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.setdefault("WENGERT_WATCHDOG_SECONDS", "60")
    return env


def _run(command, timeout):
    """(status, output, seconds): the command in its own session, killed whole on timeout."""
    start = time.monotonic()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            env=_environment(), cwd=ROOT, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                break
            time.sleep(2)
        out, _ = proc.communicate()
        pytest.fail(f"{' '.join(command)} did not finish in {timeout} s:\n"
                    f"{out.decode(errors='replace')[-4000:]}")
    return proc.returncode, out.decode(errors="replace"), time.monotonic() - start


def launch(n, script, *args, timeout=300):
    command = [sys.executable, "-m", "wengert.distribute.run", "-n", str(n),
               str(SCRIPTS / script), *map(str, args)]
    return _run(command, timeout)


def run_alone(script, *args, timeout=300):
    """The script as one ordinary process (no MPI at all): the reference."""
    return _run([sys.executable, str(SCRIPTS / script), *map(str, args)], timeout)


def _ok(result):
    status, out, _ = result
    assert status == 0, out[-6000:]
    return out


# -- equal to one process -----------------------------------------------------------------------
_RESULTS = {}


def _weights(tmp_path_factory, dtype, n):
    key = (dtype, n)
    if key not in _RESULTS:
        out = tmp_path_factory.mktemp(f"{dtype}_{n}")
        if n == 0:
            _ok(run_alone("equal_to_one_process.py", out, dtype))
        else:
            _ok(launch(n, "equal_to_one_process.py", out, dtype))
        ranks = max(n, 1)
        _RESULTS[key] = [dict(np.load(out / f"rank{r}.npz")) for r in range(ranks)]
    return _RESULTS[key]


CASES = ["strategy", "strategy_traced", "tape", "optimizer", "keras"]


@pytest.mark.parametrize("dtype, n", [("float64", 1), ("float64", 4), ("float32", 2)])
def test_training_equals_one_process(tmp_path_factory, dtype, n):
    reference = _weights(tmp_path_factory, dtype, 0)[0]
    ranks = _weights(tmp_path_factory, dtype, n)
    rtol = 1e-9 if dtype == "float64" else 1e-5
    for case in CASES:
        names = [k for k in reference if k.startswith(case + "/") and "/start" not in k]
        assert len(names) >= 3, (case, sorted(reference))
        for name in names:
            np.testing.assert_allclose(ranks[0][name], reference[name], rtol=rtol,
                                       atol=rtol * 1e-3, err_msg=f"{name} at N={n}")
            assert ranks[0][name].dtype == np.dtype(dtype) or "loss" in name or \
                "accuracy" in name or "evaluate" in name
            for r, other in enumerate(ranks[1:], 1):
                assert np.array_equal(other[name], ranks[0][name]), \
                    f"{name}: rank {r} differs from rank 0 at N={n}"


@pytest.mark.parametrize("n", [2, 4])
def test_variables_created_in_scope_start_from_rank_0(tmp_path_factory, n):
    """Each rank draws its own random weights (seeded by its rank); the scope broadcasts rank
    0's, which are the one-process reference's (seed 0)."""
    reference = _weights(tmp_path_factory, "float64", 0)[0]
    ranks = _weights(tmp_path_factory, "float64", n)
    for i in range(3):
        for r in range(n):
            assert np.array_equal(ranks[r][f"strategy/start{i}"], reference[f"strategy/start{i}"])
    own = np.random.default_rng(1).normal(size=(6, 8))  # what rank 1 drew before the broadcast
    assert not np.allclose(ranks[1]["strategy/start0"], own)


@pytest.mark.parametrize("n", [3, 4])
def test_fit_with_uneven_last_batches_equals_one_process(tmp_path, n):
    """Datasets of 18 and 10 rows in global batches of 7, 8 and 4: the last batch splits
    unevenly, or leaves ranks without rows; weights, training and validation logs and
    evaluate equal the one-process run."""
    alone, spread = tmp_path / "alone", tmp_path / "spread"
    alone.mkdir(), spread.mkdir()
    _ok(run_alone("fit_remainders.py", alone))
    _ok(launch(n, "fit_remainders.py", spread))
    reference, got = np.load(alone / "result.npz"), np.load(spread / "result.npz")
    assert sorted(got.files) == sorted(reference.files)
    for key in reference.files:  # the metric's state is float32 (Keras's floatx), summed
        rtol = 1e-6 if key.endswith("mae") else 1e-9  # in another order across the ranks
        np.testing.assert_allclose(got[key], reference[key], rtol=rtol, atol=1e-12,
                                   err_msg=f"{n} processes, {key}")


# -- failures -------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode, names", [
    ("scope", ["'layer/kernel:0'", "[3, 5]", "[3, 4]"]),
    ("gradients", ["'extra/bias:0'"]),
    ("broadcast", ["'renamed/kernel:0'", "'layer/kernel:0'"]),
    ("step", ["rank 0: gradients of 12 elements (gradient plan 0)",
              "rank 1: allreduce of 1 elements (float32, sum)", "UNCHANGED True"])])
def test_mismatched_variables_name_the_rank_and_variable(mode, names):
    status, out, seconds = launch(2, "mismatch.py", mode, timeout=120)
    assert status != 0
    assert "NOT REACHED" not in out
    assert "ReplicaMismatchError" in out and "rank 1" in out, out[-4000:]
    for name in names:
        assert name in out, out[-4000:]
    started = min(float(line.split()[1]) for line in out.splitlines()
                  if line.startswith("START "))
    assert time.time() - started < 60


def test_an_exception_on_one_rank_ends_all_ranks():
    status, out, _ = launch(3, "crash.py", timeout=120)
    finished = time.time()
    assert status != 0, out[-3000:]
    assert "NOT REACHED" not in out
    raised = [float(line.split()[1]) for line in out.splitlines() if line.startswith("RAISING ")]
    assert raised, out[-3000:]
    assert finished - raised[0] < 10.0, f"the job ended {finished - raised[0]:.1f} s after"


# -- checkpoints ----------------------------------------------------------------------------------
def test_checkpoints_written_once_and_restored_everywhere(tmp_path):
    _ok(launch(2, "checkpoints.py", tmp_path, "save_restore"))
    ranks = [json.loads((tmp_path / f"save_restore_rank{r}.json").read_text()) for r in (0, 1)]
    assert ranks[0]["writes"] == 3 and ranks[1]["writes"] == 0  # 2 managed saves + 1 plain
    assert ranks[0]["reads"] == 1 and ranks[1]["reads"] == 0
    assert ranks[0]["paths"] == ranks[1]["paths"]
    assert all(r["restored_equal"] for r in ranks)
    assert ranks[0]["weights"] == ranks[1]["weights"]
    managed = sorted(p.name for p in (tmp_path / "managed").iterdir())
    assert managed == ["checkpoint", "ckpt-1.data-00000-of-00001", "ckpt-1.index",
                       "ckpt-2.data-00000-of-00001", "ckpt-2.index"]


def test_backup_and_restore_resumes_a_distributed_fit(tmp_path):
    backup = tmp_path / "backup"
    status, out, _ = launch(2, "checkpoints.py", tmp_path, "backup", 2, backup)
    assert status != 0 and "crashes at epoch 2" in out, out[-3000:]
    assert (backup / "checkpoint").exists()
    _ok(launch(2, "checkpoints.py", tmp_path, "backup", -1, backup))
    resumed = [json.loads((tmp_path / f"backup_rank{r}.json").read_text()) for r in (0, 1)]
    _ok(launch(2, "checkpoints.py", tmp_path, "backup", -1, tmp_path / "fresh"))
    whole = json.loads((tmp_path / "backup_rank0.json").read_text())
    assert resumed[0]["epochs_run"] == [2, 3] and whole["epochs_run"] == [0, 1, 2, 3]
    assert resumed[0]["weights"] == resumed[1]["weights"] == whole["weights"]
    assert not resumed[0]["backup_left"]


# -- the Horovod-style collectives ------------------------------------------------------------
def test_horovod_collectives_join_and_watchdog(tmp_path):
    out = _ok(launch(3, "horovod_misc.py", tmp_path))
    ranks = [json.loads((tmp_path / f"rank{r}.json").read_text()) for r in range(3)]
    for r, seen in enumerate(ranks):
        x = np.arange(4.0)
        assert seen["size"] == 3 and seen["rank"] == r and seen["local_size"] == 3
        assert seen["average"] == (x + 1).tolist() and seen["sum"] == (3 * x + 3).tolist()
        assert seen["max"] == (x + 2).tolist() and seen["min"] == x.tolist()
        assert seen["grouped"] == [(3 * x + 3).tolist(), (6 * x + 6).tolist()]
        assert seen["scalar"] == [[], 3.0] and seen["strategy_scalar"] == [[], 6.0]
        assert seen["allgather"] == [[0.0, 0.0]] + [[1.0, 1.0]] * 2 + [[2.0, 2.0]] * 3
        assert seen["broadcast"] == (x + 2).tolist()
        assert seen["object"] == {"rank": 2, "tuple": [1, "a"], "array": [0, 2, 4]}
        assert seen["allgather_object"] == ["r0", "r1", "r2"]
        assert seen["allreduce_grad"] == (2 * 3 * (x + r)).tolist()
        assert seen["traced"] == [(3 * x + 3).tolist(), [0.0, 1.0, 2.0], x.tolist()]
        assert seen["sparse_type"] == "IndexedSlices"
        assert seen["sparse_table"] == [[-1.0] * 2, [-2.0] * 2, [-3.0] * 2, [0.0] * 2,
                                        [0.0] * 2, [-6.0] * 2]
        assert seen["none_grads"] == [[1.0, 1.0], None]
    # rank 2 joins after 3 steps; then averages are over ranks 0 and 1 (weights 1 and 2)
    assert ranks[0]["join_grads"] == [[2.0, 2.0]] * 3 + [[1.5, 1.5]] * 2
    assert ranks[2]["join_grads"] == [[2.0, 2.0]] * 3
    assert ranks[0]["join_means"] == [1.0, 1.0, 1.0, 0.5, 0.5]
    assert {seen["last_joined"] for seen in ranks} == {1}
    assert "rank 0 of 3 has waited" in out and "barrier" in out


# -- the example ----------------------------------------------------------------------------------
def _mnist_dir():
    for directory in (ROOT.parent / "shared" / "data" / "mnist",
                      pathlib.Path("/work/shared/data/mnist")):
        if (directory / "t10k-images-idx3-ubyte.gz").exists():
            return directory
    return None


@pytest.mark.skipif(_mnist_dir() is None, reason="needs the shared MNIST files")
@pytest.mark.parametrize("mode", ["--fit", "--loop"])
def test_the_mnist_example_runs_on_two_processes(mode):
    args = ["--epochs", "1", "--train", "2000", "--data", _mnist_dir()]
    command = [sys.executable, "-m", "wengert.distribute.run", "-n", "2",
               str(ROOT / "examples" / "mnist_distributed.py"), *map(str, args)]
    if mode == "--loop":
        command.append("--loop")
    out = _ok(_run(command, 300))
    line = [x for x in out.splitlines() if "test accuracy" in x]
    assert line and "on 2 process(es)" in line[0], out[-3000:]
    assert float(line[0].split("test accuracy ")[1].split("%")[0]) > 70.0
