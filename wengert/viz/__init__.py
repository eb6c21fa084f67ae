"""`wengert.viz`: pictures of forward and gradient graphs (Graphviz DOT, SVG/PNG via `dot`)."""
from .dot import Drawing, draw

__all__ = ["draw", "Drawing"]
