"""The domain's error vocabulary: one base class with a stable code, its params and its place.

Every refusal of the domain (cards, scoring, the play check, analysis, the rules engine, the
games service) is a `DomainError`. Its `code` names the reason for clients and message
catalogues, `params` hold the values a message needs, and `field`/`index` point at the input at
fault. What a refusal means in HTTP is the API's business: it maps error classes to statuses.
"""
from __future__ import annotations


class DomainError(ValueError):
    """A refusal with a stable machine code. `code` defaults to the class's own."""

    code = "invalid_input"

    def __init__(self, message: str = "", *, code: str | None = None, field: str | None = None,
                 index: int | None = None, **params):
        if code is not None:
            self.code = code
        super().__init__(message or self.code.replace("_", " "))
        self.field = field
        self.index = index
        self.params = params

    @property
    def where(self) -> str | None:
        """The input at fault as a client names it: `hand[2]`, `starter`, or None."""
        if self.field is None:
            return None
        return self.field if self.index is None else f"{self.field}[{self.index}]"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r}, code={self.code!r})"


class InvalidInputError(DomainError):
    """Input that cannot be accepted whatever the state: malformed, unknown or impossible."""


class IllegalActionError(DomainError):
    """A well-formed request that the rules (or the table) refuse in the present state."""
