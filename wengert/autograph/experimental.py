"""`tf.autograph.experimental`: do_not_convert, set_loop_options, Feature."""
from .api import Feature, do_not_convert, set_loop_options

__all__ = ["do_not_convert", "set_loop_options", "Feature"]
