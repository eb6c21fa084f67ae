"""The names converted code calls as `ag__.<name>`: AutoGraph's runtime operators, gathered in one
module (conversion.py hands this module to every converted function as its `ag__`)."""
import sys

from . import conversion
from .calls import converted_call
from .conditionals import and_, if_exp, if_stmt, not_, or_
from .loops import for_stmt, while_stmt
from .undefined import Undefined, UndefinedReturnValue, ld, ret

__all__ = ["converted_call", "if_stmt", "if_exp", "and_", "or_", "not_", "while_stmt",
           "for_stmt", "Undefined", "UndefinedReturnValue", "ld", "ret"]

conversion.set_runtime(sys.modules[__name__])
