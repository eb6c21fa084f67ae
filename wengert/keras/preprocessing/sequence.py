"""`keras.preprocessing.sequence`: `pad_sequences`, the function `keras.utils` also names
(utils/sequences.py holds it)."""
from ..utils.sequences import pad_sequences

__all__ = ["pad_sequences"]
