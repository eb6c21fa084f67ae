"""`tf.summary.experimental`: the default step, and scopes for summary names."""
import contextlib
import re

from ..graph.graph import current_scope_name, name_scope
from .writer import get_step, set_step

__all__ = ["get_step", "set_step", "summary_scope"]


@contextlib.contextmanager
def summary_scope(name, default_name=None, values=None):
    """Yields (tag, scope name) for a summary called `name` (or `default_name`), as
    TensorFlow's: the tag is the name under the enclosing name scope ("outer/name"), and the
    scope a name scope opened for it, TF 1's name_scope(name, default_name, values) (the
    values choose the graph); characters a scope name cannot hold are dropped from it."""
    name = name or default_name
    current = current_scope_name().rstrip("/")
    tag = f"{current}/{name}" if current else name
    name = re.sub(r"[^-_/.A-Za-z0-9]", "", name) or "summary"
    with name_scope(name, default_name, values) as scope:
        yield tag, scope
