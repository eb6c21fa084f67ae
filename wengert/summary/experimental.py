"""`tf.summary.experimental`: the default step, and scopes for summary names."""
import contextlib

from .writer import get_step, set_step

__all__ = ["get_step", "set_step", "summary_scope"]


@contextlib.contextmanager
def summary_scope(name, default_name=None, values=None):
    """Yields (tag, scope name) for a summary called `name` (or `default_name`)."""
    name = name or default_name
    yield name, name
