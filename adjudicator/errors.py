"""Errors that reach users: each one knows where it happened and how to fix it."""

from __future__ import annotations


class FluxxJudgeError(Exception):
    """Base class for every error the command line reports without a traceback."""


class InputError(FluxxJudgeError):
    """Bad input in a file: carries the file, line and column (1-based) when known."""

    def __init__(self, message: str, path: str | None = None, line: int | None = None, col: int | None = None):
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line
        self.col = col

    def where(self) -> str:
        parts = [self.path or "<input>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.col is not None:
                parts.append(str(self.col))
        return ":".join(parts)

    def __str__(self) -> str:
        return f"{self.where()}: {self.message}"


class CatalogueError(FluxxJudgeError):
    """The card data itself is broken: names the card and what is wrong."""


class ScenarioFault(FluxxJudgeError):
    """A scenario that misuses the format while it runs (an answer with no decision...).
    `kind` says which misuse, so that the app can say what to do in its own terms:
    "waiting" (an event came while a decision waits: `waiting` is that decision),
    "unasked" (an answer with no decision pending), "leftover" (answers left once
    the event was done), "" (any other)."""

    def __init__(self, message: str, kind: str = "", waiting: object = None):
        super().__init__(message)
        self.kind = kind
        self.waiting = waiting
