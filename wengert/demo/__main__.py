"""`python -m wengert.demo`: run the demo (wengert/demo/__init__.py says what it shows)."""
from .tour import main

main()
