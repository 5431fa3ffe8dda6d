"""`yatzy versus`: two players, exactly. `solve` prints the first player's value and its parts;
`plan` what a rule set's whole two-player table would cost (values, bytes, core-hours).

>>> from yatzy_core.cli.command import main
>>> main(["versus", "plan", "--rules", "yahtzee-no-bonus"])    # doctest: +ELLIPSIS
yahtzee-no-bonus: two players, exact values by backward induction
...
0
"""
from __future__ import annotations

import argparse
import json

from .args import path, rules_argument, whole
from .versus_endgame import add_endgame_parsers

__all__ = ["add_versus_parser"]


def add_versus_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "versus", help="two players, exactly: the first player's chance to win under optimal play",
        description="Two players alternate whole turns, each playing to win (P(win) + 1/2 P(tie)). "
                    "solve: the first player's value by backward induction (small games on one "
                    "machine); plan: what a rule set's whole table costs.")
    sub = p.add_subparsers(dest="versus_command", metavar="{solve,plan,endgame,advise}", required=True)
    solve = sub.add_parser("solve", help="the first player's exact chance to win, its parts",
                           description="P(first wins) + 1/2 P(tie) under optimal play by both, and "
                                       "its split into wins and ties under the package's tie rule.")
    rules_argument(solve)
    solve.add_argument("--json", action="store_true",
                       help="the numbers in full precision: first, first_wins, tie, second_wins")
    dask = solve.add_argument_group("on Dask (the cluster extra): any of these runs the backward pass as tasks")
    dask.add_argument("--scheduler", metavar="ADDRESS", type=lambda v: path(v, "address"),
                      help="an existing Dask scheduler (tcp://host:8786); also lifts the one-machine limit")
    dask.add_argument("--workers", metavar="N", type=whole(1, 1024),
                      help="worker processes of the LocalCluster started for the run (default 2)")
    dask.add_argument("--store", metavar="PATH", type=lambda v: path(v, "store"),
                      help="where the layers go, a Zarr store: a folder or an fsspec URL (default: "
                           "the cache folder's versus/<rules>.zarr); a rerun resumes its finished layers")
    dask.add_argument("--value-only", action="store_true",
                      help="the value W alone (the split into wins and ties works each turn's chance "
                           "of a tie too, compiled: some 15x the time of the value alone, twice the store)")
    solve.set_defaults(run=run_solve)
    plan = sub.add_parser("plan", help="values, bytes and core-hours of a rule set's two-player table")
    rules_argument(plan)
    plan.add_argument("--json", action="store_true", help="the plan's figures as JSON")
    plan.set_defaults(run=run_plan)
    add_endgame_parsers(sub)
    return p


def run_solve(args) -> int:
    from ..game.rules import get_rules
    from ..objectives.two_player import solve_versus
    from ..objectives.versus_plan import refuse_if_too_big
    rules = _two_player_rules(args)
    if not args.scheduler:
        refuse_if_too_big(_announced_plan(rules))
    if args.scheduler or args.workers or args.store or args.value_only:
        return _solve_on_dask(rules, args)
    solved = solve_versus(rules)
    if args.json:
        print(json.dumps(solved.as_dict()))
        return 0
    print(f"{rules.name}: two players, each playing to win; the first player moves first")
    print(f"first player's value P(win) + 1/2 P(tie): {solved.first:.6f}")
    print(f"  first wins {solved.first_wins:.6f}, tie {solved.tie:.6f}, second wins {solved.second_wins:.6f}"
          " (the split under the package's tie rule)")
    print(f"{solved.values:,} values in {solved.seconds:.2f} s")
    return 0


def run_plan(args) -> int:
    plan = _announced_plan(_two_player_rules(args))
    if args.json:
        print(json.dumps(plan.as_dict()))
        return 0
    print("\n".join(plan.lines()))
    return 0


def _solve_on_dask(rules, args) -> int:
    """The backward pass on Dask: the value W and its split into wins and ties (the single-process
    path's to 1e-12, the same bits on any number of workers), or the value alone with --value-only."""
    try:
        import dask, distributed, zarr  # noqa: F401,E401 (versus_dask imports them only when it runs)
        from ..objectives.versus_dask import close_client, local_client, solve_versus_dask
    except ImportError as err:
        raise ValueError(f"--scheduler/--workers/--store need the cluster extra (pip install "
                         f"'yatzy-core[cluster]'): {err}") from None
    from ..engine.cache import cache_dir, safe_name
    store = args.store or str(cache_dir() / "versus" / f"{safe_name(rules.name)}.zarr")
    _check_store(store, rules)   # before a cluster starts: a URL no filesystem reads, another game's layers
    if args.scheduler:
        from distributed import Client
        try:
            client = Client(args.scheduler, timeout="10s")
        except (OSError, TimeoutError, ValueError, TypeError) as err:     # no port, an unknown protocol
            raise ValueError(f"argument --scheduler: cannot connect to {args.scheduler!r} ({err})") from None
    else:
        client = local_client(args.workers or 2)
    try:            # the pass's own ValueErrors (a task's guard) go through as they are: not the store's
        run = solve_versus_dask(rules, store, client=client, progress=not args.json, split=not args.value_only)
    except OSError as err:     # the store's place failing midway: no room or permission
        raise ValueError(f"argument --store: cannot use {store!r} ({err})") from None
    finally:
        close_client(client)
    if args.json:
        print(json.dumps({"rules": rules.name, "first": run.first, "first_wins": run.first_wins, "tie": run.tie,
                          "second_wins": run.second_wins, "store": run.store, "layers_done": run.layers_done,
                          "layers_kept": run.layers_kept, "dashboard": run.dashboard}))
        return 0
    print(f"first player's value P(win) + 1/2 P(tie): {run.first:.6f} (on Dask)")
    if run.tie is not None:
        print(f"  first wins {run.first_wins:.6f}, tie {run.tie:.6f}, second wins {run.second_wins:.6f}"
              " (the split under the package's tie rule)")
    print(f"layers: {run.layers_done} computed, {run.layers_kept} kept from {run.store}"
          + (f"; dashboard was {run.dashboard}" if run.dashboard else ""))
    return 0


def _check_store(store: str, rules) -> None:
    """ValueError naming --store when `store` cannot be used (no installed filesystem reads it: an
    unknown protocol, s3:// without s3fs; a file in its place, no permission, a damaged zarr.json;
    another rule set's layers), said at once rather than after a cluster has started, and apart
    from the pass: a ValueError of the pass itself is not the store's."""
    from fsspec.core import url_to_fs
    try:
        url_to_fs(store)
        import zarr
        from ..engine.cache import rules_fingerprint
        root = zarr.open_group(store, mode="a")          # as `solve_versus_dask` opens it
        held = root.attrs.get("rules", rules_fingerprint(rules))
        if held != rules_fingerprint(rules):
            raise ValueError(f"it holds another rule set's layers ({root.attrs.get('name')!r})")
    except (OSError, ImportError, ValueError) as err:
        raise ValueError(f"argument --store: cannot use {store!r} ({err})") from None


PLAN_SECONDS_PER_STATE = 1e-6   # plan_versus's wall time a state of the game (about 1.5 s for yatzy's 2.1M states,
                                # a minute or two for maxi-yatzy-no-saved-rolls' 89M, on a quiet 2-core machine)


def _two_player_rules(args):
    """The rules of `args`, refused at once (one line naming the flag) when they save rolls: the
    two-player tables do not play them, and their plan alone counts for minutes."""
    from ..game.rules import get_rules
    from .args import rules_flag
    rules = get_rules(args.rules)
    if rules.saved_rolls:
        raise ValueError(f"argument {rules_flag(args)}: rules {rules.name!r} save rolls: the two-player tables do "
                         "not play them")
    return rules


def _announced_plan(rules):
    """`plan_versus(rules)`, said first when it takes a while (a 20-box game: a minute or more)."""
    from ..engine.progress import announce
    from ..game.states import StateSpace
    from ..objectives.versus_plan import plan_versus
    announce(f"counting the two-player layers of {rules.name}", StateSpace(rules).size * PLAN_SECONDS_PER_STATE)
    return plan_versus(rules)
