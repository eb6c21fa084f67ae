"""The hinge metrics of `keras.metrics`: running means of the per-sample hinge, squared hinge
and categorical hinge losses (losses/margin.py).
"""
from ..losses.margin import categorical_hinge, hinge, squared_hinge
from .metric import _wrapper

__all__ = ["Hinge", "SquaredHinge", "CategoricalHinge"]


Hinge = _wrapper("Hinge", hinge, "hinge")
SquaredHinge = _wrapper("SquaredHinge", squared_hinge, "squared_hinge")
CategoricalHinge = _wrapper("CategoricalHinge", categorical_hinge, "categorical_hinge")
