"""The built-in games.  Each lives in its own subpackage and is registered here by id."""

from ratgames.core.registry import register_game as register_game

# One line per game: id -> "module:GameClass".
register_game("caged-rats", "ratgames.games.caged_rats.rules:CagedRats")
register_game("rat-a-tat-cat", "ratgames.games.rat_a_tat_cat.rules:RatATatCat")
register_game("rats", "ratgames.games.rats.rules:Rats")
register_game("egyptian-ratscrew", "ratgames.games.egyptian_ratscrew.rules:EgyptianRatscrew")
