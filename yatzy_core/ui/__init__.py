"""The optional views: plotly figures (`plots`), the "What should I keep?" explorer (`widgets`),
the play-along coach (`widgets_coach`) and the rules editor (`rules_editor`), which share the
ranking's table and bars (`ranking_view`) and a few widget helpers (`widget_kit`). They need the
`notebooks` extra (plotly, ipywidgets); the core package never imports them.
"""
from .plots import (NOTEBOOK_RENDERER, box_bars_figure, face_matrix_figure, gap_figure,
                    histogram_figure, layer_sizes_figure, max_count_figure, open_box_gains,
                    open_box_value_figure, score_distributions_figure, single_roll_figure,
                    text_table, turn_graph_figure, upper_total_value_figure)
from .state_graph import state_graph, state_graph_figure
from .widgets import Explorer
from .widgets_coach import CoachApp
from .rules_editor import RulesEditor

__all__ = [
    "NOTEBOOK_RENDERER", "text_table", "single_roll_figure", "face_matrix_figure",
    "max_count_figure", "layer_sizes_figure", "turn_graph_figure", "open_box_value_figure",
    "open_box_gains", "upper_total_value_figure", "score_distributions_figure",
    "histogram_figure", "box_bars_figure", "gap_figure", "state_graph", "state_graph_figure",
    "Explorer", "CoachApp", "RulesEditor",
]
