"""`tf.compat.v1.app.run`: TensorFlow 1's entry point. Parses the flags of `argv` (sys.argv by
default) into `flags.FLAGS`, calls `main` (the calling script's `main` when not given) with the
program name and the arguments no flag took, and exits with its return value."""
import sys

from .flags import FLAGS

__all__ = ["run"]


def run(main=None, argv=None):
    """Parse the flags, run `main(argv)` and `sys.exit` with what it returns."""
    args = FLAGS(sys.argv if argv is None else argv, known_only=True)
    main = main or sys.modules["__main__"].main
    sys.exit(main(args))
