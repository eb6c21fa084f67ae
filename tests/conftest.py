import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

# `import wengert` loads some namespaces only on first use. The op table and the op-name checks
# need every op family registered, as a program that uses them has them: summaries' and
# debugging's ops.
import wengert  # noqa: E402

wengert.summary, wengert.debugging  # noqa: B018
