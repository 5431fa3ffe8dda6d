"""The chunked loop every table solver runs its kernel through: slices, stops and progress."""
import threading

import numpy as np
import pytest

from yatzy_core.engine.chunked import Stopped, clear_stop, for_each_chunk, request_stop


def test_every_item_is_worked_once_in_order():
    seen = []
    for_each_chunk(np.arange(1000), lambda part: seen.extend(part.tolist()))
    assert seen == list(range(1000))


def test_a_stop_asked_mid_work_ends_it_at_the_next_chunk():
    clear_stop()
    done = []

    def work(part):
        done.append(len(part))
        if len(done) == 3:
            request_stop()

    with pytest.raises(Stopped):
        for_each_chunk(np.arange(100), work, size=10)
    assert done == [10, 10, 10]          # the fourth chunk never started
    for_each_chunk(np.arange(5), lambda part: None)   # the stop was used up: later work runs


def test_a_stop_from_another_thread_is_a_keyboard_interrupt():
    clear_stop()
    started = threading.Event()

    def work(part):
        started.set()
        threading.Thread(target=request_stop).start()
        threading.Event().wait(0.05)

    with pytest.raises(KeyboardInterrupt):
        for_each_chunk(np.arange(4), work, size=1)
    assert started.is_set()


def test_the_bar_counts_items():
    class Bar:
        n = 0

        def update(self, k):
            self.n += k

    bar = Bar()
    for_each_chunk(np.arange(37), lambda part: None, bar=bar, size=5)
    assert bar.n == 37
