"""The package's source files and their syntax trees, read and parsed once per test process for
the checks that walk every file (the house rules, the layers, the op type names): parsing all of
wengert takes seconds, and each check used to do it again."""
import ast
import functools
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1] / "wengert"


@functools.lru_cache(maxsize=None)
def files():
    """Every .py file of the package, sorted."""
    return tuple(sorted(ROOT.rglob("*.py")))


@functools.lru_cache(maxsize=None)
def source(path):
    return path.read_text()


@functools.lru_cache(maxsize=None)
def tree(path):
    """The file's syntax tree (shared: read it, never change it)."""
    return ast.parse(source(path), str(path))
