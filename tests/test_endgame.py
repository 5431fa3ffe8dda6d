"""The endgame tables (objectives/endgame.py) against the whole two-player solve on small games:
every stored value of every layer, the values outside each pair's window (0 or 1), and a (2, 2)
position's turn worked on demand; plus the cache's faults."""
import numpy as np
import pytest

from yatzy_core.engine import turn as engine
from yatzy_core.engine.bruteforce import versus_value as brute_value
from yatzy_core.game.states import StateSpace
from yatzy_core.objectives import endgame
from yatzy_core.objectives.targets import max_total
from yatzy_core.objectives.versus_compiled import versus_layers

from test_two_player import GAMES

BIG = [name for name, game in GAMES.items() if game.n_boxes >= 3]


def _whole(game):
    return {(game.n_boxes - ka, game.n_boxes - kb): W for (ka, kb), W in versus_layers(game)}


@pytest.mark.parametrize("name", BIG)
def test_every_stored_value_equals_the_whole_solve(name):
    game = GAMES[name]
    whole, reach = _whole(game), max_total(game)
    leads = np.arange(2 * reach + 1) - reach
    compared = 0
    for m, w in endgame.layers_for(2):
        layer = endgame.endgame_layer(game, m, w, use_cache=False)
        W = whole[m, w]
        assert W.shape[:2] == layer.start.shape
        for i in range(W.shape[0]):
            for j in range(W.shape[1]):
                gm, gw = int(layer.gain_mover[i]), int(layer.gain_waiter[j])
                window = layer.window(i, j)
                np.testing.assert_allclose(window, W[i, j, reach + gw - np.arange(gm + gw + 1)], rtol=0, atol=1e-12)
                np.testing.assert_allclose(W[i, j, leads > gw], 1.0, rtol=0, atol=1e-12)   # decided: not stored
                np.testing.assert_allclose(W[i, j, leads < -gm], 0.0, rtol=0, atol=1e-12)
                compared += len(window)
        assert compared and layer.values.size == endgame.layer_values(game, m, w)
    assert compared == sum(endgame.layer_values(game, m, w) for m, w in endgame.layers_for(2))


@pytest.mark.parametrize("name", BIG)
def test_a_two_two_turn_from_the_two_one_layer_equals_the_whole_solve(name):
    game = GAMES[name]
    space, n = StateSpace(game), game.n_boxes
    W, reach = _whole(game)[2, 2], max_total(game)
    movers = endgame._distinct(space, n - 2)
    for i, a in enumerate(movers):
        for j, b in enumerate(movers):
            for lead in (-7, -1, 0, 2, 5):
                later, lanes, at = endgame.turn_values(space, int(a), int(b), lead, use_cache=False)
                start = engine.evaluate(space, engine.box_values(space, later, np.array([a]), lanes)).start[0]
                assert start[at] == pytest.approx(W[i, j, reach + lead], abs=1e-12)


def test_a_decided_lead_is_clamped_and_the_turn_keeps_rows_for_its_ends_only():
    """A lead of thousands has the values of one past the decided bounds: the lanes stay as wide
    as the cards' gains and the table holds the cards the turn can end in, not the whole space."""
    game = GAMES["forced"]
    space, n = StateSpace(game), game.n_boxes
    a, b = (int(c) for c in endgame._distinct(space, n - 2)[:2])
    ga, gb = (int(endgame.most_gain(space, [c])[0]) for c in (a, b))
    assert [endgame.decided_lead(space, a, b, d) for d in (4000, gb + 1, gb, -ga, -ga - 1, -4000)] == \
        [gb + 1, gb + 1, gb, -ga, -ga - 1, -ga - 1]
    for lead, sure in ((4000, 1.0), (-4000, 0.0)):
        later, lanes, at = endgame.turn_values(space, a, b, lead, use_cache=False)
        assert lanes.width <= 2 * max(ga, gb) + 3
        assert later.rows.shape == (len(space.layer(n - 1)) + 1, lanes.width)
        start = engine.evaluate(space, engine.box_values(space, later, np.array([a]), lanes)).start[0]
        assert start[at] == sure


def test_a_card_not_in_the_layer_is_refused_not_read_from_a_neighbour():
    game = GAMES["forced"]
    space, n = StateSpace(game), game.n_boxes
    cards = endgame._distinct(space, n - 2)
    assert list(endgame._row_of(cards, cards[[1, 0]], "test")) == [1, 0]
    outside = np.setdiff1d(np.arange(space.size + 1), cards)       # a state between cards, one past the end
    for wrong in (outside[:1], outside[-1:], np.array([cards[0], outside[0]])):
        with pytest.raises(ValueError, match=r"^endgame: a test card is not among the layer's cards"):
            endgame._row_of(cards, wrong, "test")


def test_the_last_layers_equal_the_brute_force_in_fractions():
    game = GAMES["forced"]          # the Yahtzee bonus and the forced joker
    space, n = StateSpace(game), game.n_boxes
    value = brute_value(game)
    layer = endgame.endgame_layer(game, 2, 1, use_cache=False)
    checked = 0
    for i, a in enumerate(layer.movers):
        for j, b in enumerate(layer.waiters):
            for lead in range(-int(layer.gain_mover[i]) - 1, int(layer.gain_waiter[j]) + 2, 3):
                cards = [tuple(int(x) for x in space.decode(c)) for c in (a, b)]
                assert layer.value(i, j, lead) == pytest.approx(float(value(*cards, lead)), abs=1e-12)
                checked += 1
    assert checked > 100


def test_a_layer_outside_alternate_play_is_refused():
    with pytest.raises(ValueError, match="mover with 1 boxes open and the waiting player with 2"):
        endgame.endgame_layer(GAMES["forced"], 1, 2)


def test_the_cache_keeps_a_layer_and_refuses_a_damaged_one(tmp_path, monkeypatch):
    monkeypatch.setenv("YATZY_CACHE_DIR", str(tmp_path))
    game = GAMES["three-dice"]
    endgame._KEPT.clear()
    built = endgame.endgame_layer(game, 2, 1)
    files = sorted(p.name for p in tmp_path.glob("*.npz"))
    assert [f.rsplit("-", 3)[-3:] for f in files] == [["endgame", "1", "0.npz"], ["endgame", "1", "1.npz"],
                                                      ["endgame", "2", "1.npz"]]
    endgame._KEPT.clear()
    again = endgame.endgame_layer(game, 2, 1)
    np.testing.assert_array_equal(again.values, built.values)
    path = next(tmp_path.glob("*endgame-2-1.npz"))
    path.write_bytes(path.read_bytes()[:100])
    endgame._KEPT.clear()
    with pytest.warns(UserWarning, match="computed again"):
        rebuilt = endgame.endgame_layer(game, 2, 1)
    np.testing.assert_array_equal(rebuilt.values, built.values)
    assert not list(tmp_path.glob("*.tmp"))


def test_a_stop_mid_build_keeps_the_finished_layers_and_leaves_no_half_file(tmp_path, monkeypatch):
    from yatzy_core.engine.chunked import Stopped, clear_stop, request_stop
    monkeypatch.setenv("YATZY_CACHE_DIR", str(tmp_path))
    endgame._KEPT.clear()
    build = endgame._build

    def stopped_in_the_last_layer(space, m, w, nxt, progress):
        if (m, w) == (2, 1):
            request_stop()          # as Ctrl-C does: acted on at the next chunk
        return build(space, m, w, nxt, progress)

    monkeypatch.setattr(endgame, "_build", stopped_in_the_last_layer)
    try:
        with pytest.raises(Stopped):
            endgame.build_endgame(GAMES["forced"], 2, progress=False)
    finally:
        clear_stop()
    names = sorted(p.name.rsplit("-", 2)[-2] + p.name.rsplit("-", 2)[-1] for p in tmp_path.iterdir()
                   if not p.name.endswith(".npz.lock"))          # the builds' empty lock files stay
    assert names == ["10.npz", "11.npz"]        # (1, 0) and (1, 1) kept; no (2, 1), no temporary file
    assert all(p.stat().st_size == 0 for p in tmp_path.glob(".*.npz.lock"))
