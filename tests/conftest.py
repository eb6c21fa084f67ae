import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

# `import wengert` loads some namespaces only on first use. The op table and the op-name checks
# need every op family registered, as a program that uses them has them: summaries' and
# debugging's ops.
import wengert  # noqa: E402

wengert.summary, wengert.debugging  # noqa: B018


@pytest.fixture(autouse=True)
def _no_global_seed_left_behind():
    """Each test starts without a global random seed, whatever the test before it set
    (`tf.random.set_seed`, `keras.utils.set_random_seed`): a test's random draws depend on its
    own seeds only, not on the order tests run in."""
    yield
    wengert.random.set_seed(None)
