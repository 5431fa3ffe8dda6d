"""Labs: the student writes a piece of the dynamic programme, a check compares it with the package.

Each check takes the student's function, compares it with the package (or its brute force) on
several cases and returns a `Report` that prints one line: every check passed, or the first wrong
case (which keeper, roll or state, expected against got), or that the function is not written yet.

- chapter 2: `check_transition_row(transition_row)`, P(roll | keeper);
- chapter 3: `check_augmented_writing(write, rules)`, the writing stage on the state augmented with
  the capped upper total;
- chapter 4: `check_keeper_table(keeper_table)`, the keepers recursion;
- chapter 5: `check_backward_induction(V, rules)`, a whole small game solved backwards, and
  `check_bellman_operator(T, rules)`, its Bellman operator on several tables;
- chapter 6: `check_forward_pass(push, rules)`, greedy play's distribution pushed forward a turn;
- chapter 6b: `check_policy_evaluation(V, rules)`, greedy play's value, evaluated backwards;
- chapter 8: `check_target_recursion(V, rules)`, the best chance of n more points, V(s, n);
- chapter 6b: `policy_value(choices, score)`, the lab's loop for any policy given as a table, which
  chapter 11 calls once the student has written it;
- chapter 9: `check_old_policy_value(V, old, new)`, the old optimal policy evaluated under new rules;
- chapter 11: `check_list_values(V, dl)`, a rule list's value by one backward sweep over its choices;
- chapter 13: `check_versus_recursion(W, rules)`, two players, W(mover's card, waiter's card, d).

The student's function runs in a child process (sandbox.py): a call over the time limit, a
`sys.exit()` or a crash ends the check with one line, and the package's own solvers are not there
to call in place of writing the lab.
"""
from .report import Report
from .augment import check_augmented_writing
from .rolls import check_keeper_table, check_transition_row
from .games import check_backward_induction, check_target_recursion
from .operator import check_bellman_operator
from .policies import check_policy_evaluation
from .forward import check_forward_pass
from .versus import check_versus_recursion
from .rule_change import check_old_policy_value, old_policy_table, policy_table
from .sweep import policy_value
from .rule_list import check_list_values, list_table

__all__ = ["Report", "check_augmented_writing", "check_transition_row", "check_keeper_table", "check_backward_induction",
           "check_target_recursion", "check_bellman_operator", "check_policy_evaluation", "check_forward_pass",
           "check_versus_recursion",
           "check_old_policy_value", "old_policy_table", "policy_table", "policy_value",
           "check_list_values", "list_table"]
