"""`yatzy versus endgame` builds the endgame tables (`objectives.endgame`) into the cache, with
their time, memory and bytes; `yatzy versus advise` ranks a position's choices against the
opponent's real card and the lead (`objectives.versus_objective.Versus`).
"""
from __future__ import annotations

import json
import resource
import sys
import time

from .args import flag, rules_argument, text, whole

__all__ = ["add_endgame_parsers"]


def add_endgame_parsers(sub) -> None:
    end = sub.add_parser("endgame", help="build the exact endgame tables (both players with few boxes open)",
                         description="Exact two-player values of every position where both players have at "
                                     "most --open boxes open, built once into the cache (YATZY_CACHE_DIR); "
                                     "`yatzy versus advise` and `advise --versus` read them.")
    rules_argument(end)
    end.add_argument("--open", type=whole(1, 3), default=2, metavar="K",
                     help="both players with at most K boxes open (default 2; 3 where it fits in memory: "
                          "advice then reads the stored layers up to both players with 3 open)")
    end.add_argument("--json", action="store_true", help="the figures (time, peak memory, bytes) as JSON")
    end.set_defaults(run=run_endgame)
    adv = sub.add_parser("advise", help="rank the choices against the opponent's card: P(win) + 1/2 P(tie)",
                         description="The mover's position, the opponent's card (--versus) and the lead "
                                     "(--lead: your points minus theirs) -> every choice ranked by P(win) + "
                                     "1/2 P(tie), both playing to win: exact from the endgame tables where both "
                                     "players have at most 2 boxes open (3 when built with --open 3); before "
                                     "that the approximation (the opponent taken to play for the best average), "
                                     "labelled with its measured loss. JSON rows say \"exact\": true or false.")
    rules_argument(adv)
    adv.add_argument("--dice", required=True, type=text, nargs="+", metavar="DICE", help="the dice showing: 11112")
    adv.add_argument("--rolls-left", type=whole(), default=None, metavar="N", help="rerolls still allowed this turn")
    adv.add_argument("--used", default="", metavar="BOXES", type=text, help="your used boxes, comma separated")
    adv.add_argument("--upper", type=whole(), default=0, metavar="TOTAL", help="your upper total so far")
    adv.add_argument("--yahtzee-bonus", action="store_true", help="your Yahtzee box holds 50")
    from ..objectives.registry import objective_class
    from .args import parameter_type
    for p in objective_class("versus").parameters:
        adv.add_argument(p.flag, type=parameter_type(p), required=True, metavar=p.metavar, dest=p.name,
                         help=p.help.format(ranks="rank the choices by"))
    adv.add_argument("--json", action="store_true", help="print JSON objects, best first")
    adv.add_argument("--top", type=whole(1), default=None, metavar="N", help="show only the N best choices")
    adv.set_defaults(run=run_versus_advise)


def run_endgame(args) -> int:
    from ..engine.cache import cache_path
    from ..game.rules import get_rules
    from ..objectives.endgame import RATE_SECONDS, endgame_layer, layer_fault, layer_kind, layer_values, layers_for
    from ..objectives.versus_plan import machine_memory
    rules = get_rules(args.rules)
    if rules.saved_rolls:
        raise ValueError(f"argument {'--rules'}: {rules.name!r} saves rolls: the two-player tables do not play them")
    if args.open > rules.n_boxes:
        raise ValueError(f"argument --open: {rules.name!r} has only {rules.n_boxes} boxes")
    layers = layers_for(args.open)
    sizes = {layer: layer_values(rules, *layer) for layer in layers}
    largest = max(sizes[(m, w)] + sizes.get((w, m - 1), 0) for m, w in layers) * 8
    memory = machine_memory()                  # the one rule, as `yatzy versus solve`'s
    if largest > memory:
        raise ValueError(f"argument --open: {args.open} open boxes needs {largest / 1e9:,.1f} GB for a layer and "
                         f"the one it reads (float64), more than the {memory / 1e9:,.1f} GB free here")
    total = sum(sizes.values())
    missing = sum(sizes[(m, w)] for m, w in layers if layer_fault(rules, m, w))   # absent or damaged: built
    if not args.json:
        build = f"roughly {missing * RATE_SECONDS / 60:.1f} min on 2 cores" if missing else "all in the cache"
        print(f"{rules.name}: endgame tables, both players with at most {args.open} boxes open: {len(layers)} "
              f"layers, {total:.3g} values ({total * 8 / 1e9:.2f} GB float64), {build}", flush=True)
    began, figures = time.perf_counter(), []
    for m, w in layers:
        path = cache_path(rules, layer_kind(m, w))
        before = path.stat().st_mtime_ns if path.exists() else None
        layer = endgame_layer(rules, m, w, progress=not args.json, build=True)
        saved = layer.saved and path.exists()     # read from it or written: not a failed write (a full disk,
        was = layer.from_file or (                # warned above) that left an old, damaged file in place
            saved and before is not None and path.stat().st_mtime_ns == before)   # not rebuilt: read, or kept
        figures.append({"layer": [m, w], "values": int(layer.values.size), "seconds": round(layer.seconds, 2),
                        "kept": was, "saved": saved, "file": str(path), "file_bytes": path.stat().st_size if saved else None})
        if not args.json:
            print(f"layer ({m},{w}): {layer.values.size:,} values, "
                  f"{'kept from the cache' if was else f'built in {layer.seconds:.1f} s'}; "
                  f"{path if saved else 'NOT saved (the warning above says why): advice will build it again'}", flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * (1 if sys.platform == "darwin" else 1024)
    result = {"rules": rules.name, "open": args.open, "values": total, "seconds": round(time.perf_counter() - began, 2),
              "peak_rss_bytes": peak, "layers": figures}
    if args.json:
        print(json.dumps(result))
    else:
        print(f"done in {result['seconds']:.1f} s, peak memory {peak / 1e9:.2f} GB, "
              f"{sum(f['file_bytes'] or 0 for f in figures) / 1e9:.2f} GB on disk")
    return 0 if all(f["saved"] for f in figures) else 1     # the command's job is the cache: say it failed


def _position(args):
    from ..engine.position import Position
    given, position = {}, None
    dice = ",".join(args.dice) if isinstance(args.dice, list) else args.dice
    for name, key, value in (("--dice", "dice", dice), ("--used", "used", args.used), ("--upper", "upper_total", args.upper),
                             ("--rolls-left", "rolls_left", args.rolls_left),
                             ("--yahtzee-bonus", "yahtzee_bonus", args.yahtzee_bonus)):
        given[key] = value
        with flag(name):
            position = Position.make(args.rules, **given)
    return position


def run_versus_advise(args) -> int:
    from ..advice.advisor import advise
    from ..objectives.versus_objective import Versus
    from .args import printable
    position = _position(args)
    with flag("--versus"):
        objective = Versus(args.opponent, args.lead)
        objective.check(position.rules)
        from .long_work import announce_work
        announce_work(objective, position.rules, position)      # a layer to build first: what, how long
        exact = objective.answer_for(position) is objective
        table = objective.table(position, progress=not args.json)   # built once if missing; beyond the
    ranked = advise(position, table, objective=objective)[:args.top]   # tables, the approximation's
    if args.json:
        rows = ({**a.to_dict(), "exact": exact} for a in ranked)
        print("[\n" + ",\n".join("  " + json.dumps(row, allow_nan=False) for row in rows) + "\n]")
        return 0
    print(printable(position))
    print(objective.aim_at(position))
    width, head = max(len(a.text) for a in ranked), objective.answer_for(position).column
    print(f"{'rank':>4}  {'action':<{width}}  {head:>15}")
    for rank, a in enumerate(ranked, start=1):
        print(f"{rank:>4}  {a.text:<{width}}  {a.value:>15.6f}")
    return 0
