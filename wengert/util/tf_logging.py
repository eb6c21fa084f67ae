"""TensorFlow's logging (`tf.get_logger()`, `tf.compat.v1.logging`): Python's `logging` logger
named "tensorflow", with TensorFlow 1's level names (DEBUG 10, INFO 20, WARN 30, ERROR 40,
FATAL 50) and helpers. The logger's level is the verbosity; it starts at WARN as TensorFlow's
does, and messages go to standard error."""
import logging
import sys
import threading

__all__ = ["DEBUG", "ERROR", "FATAL", "INFO", "WARN", "TaskLevelStatusMessage", "debug", "error",
           "fatal", "flush", "get_logger", "get_verbosity", "info", "log", "log_every_n",
           "log_first_n", "log_if", "set_verbosity", "vlog", "warn", "warning"]

DEBUG, INFO, WARN, ERROR, FATAL = (logging.DEBUG, logging.INFO, logging.WARN, logging.ERROR,
                                   logging.FATAL)
_counts = {}
_SETUP_LOCK = threading.Lock()


def get_logger():
    """The "tensorflow" logger, set up on first use: level WARN, one handler to stderr. Two
    threads that ask first at the same time set it up once."""
    logger = logging.getLogger("tensorflow")
    if not logger.handlers:
        with _SETUP_LOCK:
            if not logger.handlers:
                handler = logging.StreamHandler(sys.stderr)
                handler.setFormatter(logging.Formatter("%(levelname)s:%(name)s:%(message)s"))
                logger.addHandler(handler)
                logger.propagate = False
                if logger.level == logging.NOTSET:
                    logger.setLevel(WARN)
    return logger


def set_verbosity(v):
    """Log messages at level `v` and above."""
    get_logger().setLevel(v)


def get_verbosity():
    return get_logger().getEffectiveLevel()


def log(level, msg, *args, **kwargs):
    get_logger().log(level, msg, *args, **kwargs)


def debug(msg, *args, **kwargs):
    get_logger().debug(msg, *args, **kwargs)


def info(msg, *args, **kwargs):
    get_logger().info(msg, *args, **kwargs)


def warning(msg, *args, **kwargs):
    get_logger().warning(msg, *args, **kwargs)


warn = warning


def error(msg, *args, **kwargs):
    get_logger().error(msg, *args, **kwargs)


def fatal(msg, *args, **kwargs):
    get_logger().fatal(msg, *args, **kwargs)


def vlog(level, msg, *args, **kwargs):
    get_logger().log(level, msg, *args, **kwargs)


def log_if(level, msg, condition, *args):
    """Log `msg` when `condition` holds."""
    if condition:
        log(level, msg, *args)


def log_every_n(level, msg, n, *args):
    """Log `msg` on its 1st, (n+1)th, (2n+1)th ... call from the same place."""
    key = ("every", _caller(), n)
    count = _counts.get(key, 0)
    _counts[key] = count + 1
    log_if(level, msg, count % n == 0, *args)


def log_first_n(level, msg, n, *args):
    """Log `msg` on its first n calls from the same place."""
    key = ("first", _caller(), n)
    count = _counts.get(key, 0)
    _counts[key] = count + 1
    log_if(level, msg, count < n, *args)


def _caller():
    frame = sys._getframe(2)
    return frame.f_code.co_filename, frame.f_lineno


def flush():
    for handler in get_logger().handlers:
        handler.flush()


def TaskLevelStatusMessage(msg):  # noqa: N802 (TensorFlow's name)
    error(msg)
