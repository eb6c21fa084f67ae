"""The stack of variable creators behind `tf.variable_creator_scope`: functions
`creator(next_creator, **kwargs)` that see, change or replace every variable being made.

`Variable(...)` (and so `tf.compat.v1.get_variable`, which makes its variables through it) goes
through `VariableMeta.__call__`: with no creator in scope it is an ordinary construction; with
creators, the constructor's arguments are named (positional ones bound to the constructor's
parameters) and handed to the innermost creator, whose `next_creator` calls the next one out,
and so on to the default, which constructs the variable from the keyword arguments it is given.
Whatever the innermost creator returns is what `Variable(...)` returns. The stack is per thread,
as TensorFlow's is per graph and thread; a creator runs while its scope is open only.
"""
import contextlib
import functools
import inspect
import threading

__all__ = ["VariableMeta", "creator_scope", "snapshot", "restore"]

_LOCAL = threading.local()


def _stack():
    stack = getattr(_LOCAL, "stack", None)
    if stack is None:
        stack = _LOCAL.stack = []
    return stack


def snapshot():
    """This thread's creators (a copy), for a thread that runs on its behalf (a replica)."""
    return list(_stack())


def restore(creators):
    """Make `creators` (a snapshot) this thread's stack."""
    _LOCAL.stack = list(creators)


@contextlib.contextmanager
def creator_scope(creator):
    """Run the block with `creator(next_creator, **kwargs)` innermost on this thread's stack."""
    if not callable(creator):
        raise TypeError(f"variable_creator_scope: variable_creator must be callable, got "
                        f"{creator!r}.")
    stack = _stack()
    stack.append(creator)
    try:
        yield
    finally:
        stack.pop()  # this scope's entry: scopes close innermost first


def _named(cls, args, kwargs):
    """The constructor's arguments by name (keyword arguments it would ignore kept as given)."""
    if not args:
        return dict(kwargs)
    bound = inspect.signature(cls.__init__).bind_partial(None, *args, **kwargs).arguments
    named = {k: v for k, v in list(bound.items())[1:] if k != "_ignored"}
    named.update(bound.get("_ignored", {}))
    return named


class VariableMeta(type):
    """The metaclass of Variable: construction passes through the creators in scope."""

    def __call__(cls, *args, **kwargs):
        stack = getattr(_LOCAL, "stack", None)
        if not stack:
            return super().__call__(*args, **kwargs)
        chain = functools.partial(type.__call__, cls)
        for creator in list(stack):
            chain = functools.partial(_call_creator, creator, chain)
        return chain(**_named(cls, args, kwargs))


def _call_creator(creator, next_creator, **kwargs):
    return creator(next_creator, **kwargs)
