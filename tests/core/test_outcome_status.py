"""A device move's outcome has a closed set of statuses (`OutcomeStatus`), each told in `DeviceOutcome.status`'s
docstring, which names no other."""

from __future__ import annotations

import ast
import inspect
import re
from typing import get_args

from assistant.core.language import device
from assistant.core.language.device import DeviceOutcome, OutcomeStatus


def _status_docstring() -> str:
    """The docstring under `DeviceOutcome.status`, read from the source."""
    tree = ast.parse(inspect.getsource(device))
    cls = next(node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "DeviceOutcome")
    for field, doc in zip(cls.body, cls.body[1:], strict=False):
        if isinstance(field, ast.AnnAssign) and isinstance(field.target, ast.Name) and field.target.id == "status":
            assert isinstance(doc, ast.Expr) and isinstance(doc.value, ast.Constant)
            return str(doc.value.value)
    raise AssertionError("no docstring under DeviceOutcome.status")


def test_the_status_docstring_names_every_status_and_no_other():
    statuses = set(get_args(OutcomeStatus))
    assert len(statuses) == 10
    assert set(re.findall(r'"([a-z]+)"', _status_docstring())) == statuses


def test_an_outcome_status_is_the_literal_type():
    assert DeviceOutcome.__annotations__["status"] in ("OutcomeStatus", OutcomeStatus)
