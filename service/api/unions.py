"""Tagged unions: JSON objects whose `type` names the schema they follow (an action, an event).

The OpenAPI document shows a union as a `oneOf` of its variants with `type` as the
discriminator (service.api.spec); loading one loads it with its variant's schema.
"""
from __future__ import annotations

from typing import ClassVar

import marshmallow as ma
from marshmallow import fields, validate


def tag(name: str) -> fields.String:
    """The `type` field of a variant: always `name`."""
    return fields.String(required=True, validate=validate.Equal(name))


def tag_of(variant: type[ma.Schema]) -> str:
    equal = variant._declared_fields["type"].validators[0]
    if not isinstance(equal, validate.Equal):
        raise TypeError(f"{variant.__name__}.type is not a tag")
    return equal.comparable


class TaggedUnionSchema(ma.Schema):
    """A subclass lists its variant schemas in `variants`, each with a `tag` field `type`."""

    variants: ClassVar[tuple[type[ma.Schema], ...]] = ()

    type = fields.String(required=True)

    class Meta:
        unknown = ma.INCLUDE  # the fields besides `type` are the variant's to check

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._by_tag = {tag_of(variant): variant() for variant in self.variants}

    @ma.validates("type")
    def _known_type(self, value: str, **kwargs) -> None:
        validate.OneOf(sorted(self._by_tag))(value)

    def load(self, data, **kwargs):
        tagged = super().load(data, **kwargs)
        return self._by_tag[tagged["type"]].load(data, **kwargs)
