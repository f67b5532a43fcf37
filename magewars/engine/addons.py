"""Effects, values and events kept in their own modules, added to the engine's tables on import.

`primitives.PRIMITIVES` and `primitives.VALUES` are the engine's tables of what an effect call or a
value does.  The modules imported here each implement one family of constructs and add their entries
to those tables when imported, so `primitives.py` stays small and shared.  engine/game.py imports this
module (every game sees the additions), and so does the table of what runs that coverage reads.
"""
from __future__ import annotations

from . import ability_costs  # noqa: F401  spend_action
from . import reanimation  # noqa: F401  reanimate
from . import removal  # noqa: F401  remove_condition, removal_cost
from . import situation  # noqa: F401  action_kind, upkeep_paid
from . import lingering  # noqa: F401  linger
from . import glyphs  # noqa: F401  glyph, glyph_active, borrow_bars
from . import outofarena  # noqa: F401  remove_from_arena

MODULES = (ability_costs, reanimation, removal, situation, lingering, glyphs, outofarena)
