"""How the marshmallow schemas become the OpenAPI document, where apispec's defaults fall short.

- A tagged union (service.api.unions) is a `oneOf` of its variants, `type` the discriminator.
- A field class listed in SHARED_FIELDS is one named component schema (e.g. CardText, with the
  card notation's pattern), referenced wherever the field is used; a nullable one stays inline,
  since OpenAPI 3.0 cannot mark a reference nullable.
- A schema's Meta.description no longer drops its additionalProperties.
"""
from __future__ import annotations

import marshmallow as ma
from apispec.ext.marshmallow import MarshmallowPlugin, OpenAPIConverter

from service.api.fields import CanonicalCard, CardText, HeldCardText
from service.api.unions import TaggedUnionSchema, tag_of

SHARED_FIELDS = (CardText, HeldCardText, CanonicalCard)


class Converter(OpenAPIConverter):
    def schema2jsonschema(self, schema):
        if isinstance(schema, TaggedUnionSchema):
            return self._union(schema)
        jsonschema = super().schema2jsonschema(schema)
        if schema.unknown != ma.EXCLUDE:
            jsonschema["additionalProperties"] = schema.unknown == ma.INCLUDE
        return jsonschema

    def field2property(self, field):
        kind = type(field)
        if kind not in SHARED_FIELDS or field.allow_none:
            return super().field2property(field)
        name = kind.__name__
        if name not in self.spec.components.schemas:
            self.spec.components.schema(name, component=super().field2property(kind()))
        return self.spec.components.get_ref("schema", name)

    def _union(self, union: TaggedUnionSchema) -> dict:
        refs = {tag_of(variant): self.resolve_nested_schema(variant)
                for variant in union.variants}
        jsonschema = {
            "oneOf": list(refs.values()),
            "discriminator": {"propertyName": "type",
                              "mapping": {name: ref["$ref"] for name, ref in refs.items()}},
        }
        description = getattr(union.Meta, "description", None)
        if description:
            jsonschema["description"] = description
        return jsonschema


class Plugin(MarshmallowPlugin):
    Converter = Converter
