"""`wengert.train` (TensorFlow's `tf.train` and `tf.compat.v1.train`): checkpoints, TF1 optimizers
and the global step. TensorFlow 2 / Keras optimizers are `wengert.optimizers`; SciPy's
minimizers with wengert's derivatives are `wengert.optimize`.
"""
# -- checkpoints (data/checkpoint helper) ---------------------------------------------------------
from .checkpoint import *  # noqa: F401,F403
from .checkpoint_options import *  # noqa: F401,F403

# -- TF1 optimizers (optimizers helper) -----------------------------------------------------------
from .optimizer import *  # noqa: F401,F403
from .v1_optimizers import *  # noqa: F401,F403
from .adaptive_optimizers import *  # noqa: F401,F403
from .proximal_optimizers import *  # noqa: F401,F403
from .global_step_variable import *  # noqa: F401,F403

# -- tf.train.Example and its parts (protocol buffers, see framework/protos/example.py) ----------
from ..framework.protos.example import (BytesList, Example, Feature, FeatureList,  # noqa: F401
                                        FeatureLists, Features, FloatList, Int64List,
                                        SequenceExample)

# -- TF 1 name-based checkpoints: Saver, its state file, meta graphs ------------------------------
from .checkpoint_state import *  # noqa: F401,F403
from .saver import *  # noqa: F401,F403
from .saver_def import *  # noqa: F401,F403
from .meta_graph import *  # noqa: F401,F403
from .meta_graph_import import *  # noqa: F401,F403
from .checkpoint_utils import *  # noqa: F401,F403
from ..tf1.graph_util import write_graph  # noqa: F401

# -- TF 1 learning-rate decay functions and moving averages ---------------------------------------
from .learning_rate_decay import *  # noqa: F401,F403
from .moving_averages import *  # noqa: F401,F403

# -- TF 1 monitored training: hooks, monitored sessions, the coordinator --------------------------
from .session_run_hook import *  # noqa: F401,F403
from .basic_hooks import *  # noqa: F401,F403
from .coordinator import *  # noqa: F401,F403
from .session_manager import *  # noqa: F401,F403
from .monitored_session import *  # noqa: F401,F403
from .replica_device_setter import *  # noqa: F401,F403
from .supervisor import *  # noqa: F401,F403

# -- TF 1 queue-based input: queue runners, input producers, batching queues -----------------------
from .queue_runner import *  # noqa: F401,F403
from .input_producers import *  # noqa: F401,F403
from .batching import *  # noqa: F401,F403

# -- TF 1's cluster description and event-file reader (wengert/tf1/) -------------------------------
from ..tf1.cluster_spec import ClusterDef, ClusterSpec, JobDef  # noqa: F401
from ..tf1.summary_iterator import summary_iterator  # noqa: F401
from .warm_starting import warm_start  # noqa: F401  TF 1's warm starting from a checkpoint
