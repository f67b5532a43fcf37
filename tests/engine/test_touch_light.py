"""`GameState.touch_light()` says a change left every fingerprinted field as it was (engine/state.py,
Effects._fingerprint): derived values and the answers kept per fingerprint (reveal costs, statics in
play...) then stay, and the state is not fingerprinted again.  A site that calls it after changing a
fingerprinted field would leave them stale.  Checked at every such call of seeded random duels: while
the kept fingerprint is as of the current shape version (nothing but light changes since), the state's
fingerprint is still that one."""
import pytest

from magewars.duel.runner import DuelConfig, setup_game
from magewars.engine.state import GameState


@pytest.mark.parametrize("books,seed", [(("beastmaster", "wizard"), 5), (("druid", "necromancer"), 5),
                                        (("warlord", "priestess"), 2)])
def test_every_light_touch_leaves_the_fingerprint_as_it_was(corpus, monkeypatch, books, seed):
    game, _, _, _ = setup_game(DuelConfig(books, ("random", "random"), seed=seed, max_rounds=6), 1)
    eff = game.effects
    checked = []
    touch_light = GameState.touch_light

    def checked_touch(self):
        if self is game.state and eff._shape_version == self.shape_version and not eff._frames:
            assert eff._fingerprint() == eff._shape, "touch_light() after a change of a fingerprinted field"
            checked.append(1)
        touch_light(self)
    monkeypatch.setattr(GameState, "touch_light", checked_touch)
    game.play(max_rounds=6)
    assert len(checked) > 50  # (the duel went on long enough to say something)
