"""`tf.compat.v1.logging`: TensorFlow 1's logging functions (util/tf_logging.py)."""
from ...util.tf_logging import (DEBUG, ERROR, FATAL, INFO, WARN,  # noqa: F401
                                TaskLevelStatusMessage, debug, error, fatal, flush,
                                get_verbosity, info, log, log_every_n, log_first_n, log_if,
                                set_verbosity, vlog, warn, warning)
