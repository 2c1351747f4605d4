"""Formulas over named metric queries (`a`, `a + b`, `100 * a / b`): numbers, query names, `+ - * /`,
unary minus and parentheses; no functions. Parsed once into a tree of Python's `ast`, never executed."""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable

_OPERATORS: dict[type, Callable[[float, float], float]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
}
MAX_LENGTH = 500  # characters: a formula's tree, hence its cost per point, stays small


class FormulaError(ValueError):
    """A formula outside the subset read here."""


def parse(text: str, names: set[str]) -> ast.expr:
    """The formula's tree; a name that is not one of `names`, or anything but the subset, is a FormulaError."""
    if len(text) > MAX_LENGTH:
        raise FormulaError(f"a formula is at most {MAX_LENGTH} characters")
    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        raise FormulaError(f"invalid formula {text!r}") from None
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            if node.id not in names:
                raise FormulaError(f"unknown query name {node.id!r} in formula {text!r}")
        elif isinstance(node, ast.BinOp):
            if type(node.op) not in _OPERATORS:
                raise FormulaError(f"unsupported operator in formula {text!r}")
        elif isinstance(node, ast.UnaryOp):
            if not isinstance(node.op, (ast.USub, ast.UAdd)):
                raise FormulaError(f"unsupported operator in formula {text!r}")
        elif isinstance(node, ast.Constant):
            if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
                raise FormulaError(f"invalid formula {text!r}")
        elif not isinstance(node, (ast.Load, ast.operator, ast.unaryop)):
            raise FormulaError(f"unsupported formula {text!r}: only + - * / over query names and numbers")
    return tree


def names(tree: ast.expr) -> list[str]:
    """The query names a formula reads, in order of first use."""
    return list(dict.fromkeys(n.id for n in ast.walk(tree) if isinstance(n, ast.Name)))


def evaluate(tree: ast.expr, values: dict[str, float | None]) -> float | None:
    """The formula's value; None where a query has no value or a division is by zero."""
    if isinstance(tree, ast.Constant) and isinstance(tree.value, (int, float)):
        return float(tree.value)
    if isinstance(tree, ast.Name):
        return values.get(tree.id)
    if isinstance(tree, ast.UnaryOp):
        operand = evaluate(tree.operand, values)
        return None if operand is None else -operand if isinstance(tree.op, ast.USub) else operand
    if not isinstance(tree, ast.BinOp):  # `parse` lets nothing else through
        raise FormulaError("invalid formula")
    left, right = evaluate(tree.left, values), evaluate(tree.right, values)
    if left is None or right is None or (isinstance(tree.op, ast.Div) and right == 0):
        return None
    return _OPERATORS[type(tree.op)](left, right)
