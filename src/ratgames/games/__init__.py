"""The built-in games.  Each lives in its own subpackage, whose ``__init__.py`` registers it by
id with every part it brings (:class:`ratgames.core.registry.GameParts`); importing this package
imports those four small modules, and nothing else of the games until a game is asked for."""

from . import caged_rats, rat_a_tat_cat, rats, egyptian_ratscrew  # noqa: F401, I001  (registered in this order)
