import gc
import os
import sys


def _share_the_cores_between_workers():
    """Under pytest-xdist, N workers share the machine's cores: give each worker's BLAS
    cores // N threads (at least one) unless the environment already chose a count. BLAS
    threads that outnumber the cores spin against each other: the MNIST CNN test took 386 s
    with OpenBLAS's default threads and 56 s with one, on two cores at load 7. This must run
    before NumPy loads its BLAS."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0") or 0)
    if workers < 1 or "numpy" in sys.modules:
        return
    threads = str(max(1, (os.cpu_count() or 1) // workers))
    for name in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_NUM_THREADS"):
        os.environ.setdefault(name, threads)


_share_the_cores_between_workers()

import pytest  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))

# `import wengert` loads some namespaces only on first use. The op table and the op-name checks
# need every op family registered, as a program that uses them has them: summaries' and
# debugging's ops, tf.raw_ops' families and tf.compat.v1's.
import wengert  # noqa: E402
import wengert.compat.v1  # noqa: E402,F401
import wengert.raw_ops  # noqa: E402,F401

wengert.summary, wengert.debugging  # noqa: B018


def pytest_collection_finish(session):
    """What collection built (every test item and its parameters: tens of thousands of objects)
    lives to the end of the run: move it out of the cyclic garbage collector's sight. Each
    `keras.backend.clear_session()` runs a full collection, as Keras's does; over the whole
    heap that took about 2 s per Keras test late in a run, and now only scans what the tests
    made since."""
    gc.collect()
    gc.freeze()


@pytest.fixture(scope="module", autouse=True)
def _frozen_leftovers():
    """After each test module, what it left alive (caches, module-scoped results) is moved out
    of the collector's sight too, once its garbage is collected, for the same reason."""
    yield
    gc.collect()
    gc.freeze()


@pytest.fixture(autouse=True)
def _no_global_seed_left_behind():
    """Each test starts without a global random seed, whatever the test before it set
    (`tf.random.set_seed`, `keras.utils.set_random_seed`): a test's random draws depend on its
    own seeds only, not on the order tests run in."""
    yield
    wengert.random.set_seed(None)
