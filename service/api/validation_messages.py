"""marshmallow's field messages in Spanish.

The schemas (and webargs, for query strings) produce English messages; a Spanish request gets
them translated here, by matching the formatted English text against templates. A message no
template matches stays in English.
"""
from __future__ import annotations

import re
import string

# English template -> Spanish template; {params} are copied over as they are.
SPANISH: dict[str, str] = {
    # Any field, any schema
    "Missing data for required field.": "Falta este campo obligatorio.",
    "Field may not be null.": "El campo no puede ser nulo.",
    "Unknown field.": "Campo desconocido.",
    "Invalid input type.": "Tipo de entrada no válido.",
    "Invalid type.": "Tipo no válido.",
    # Types
    "Not a valid string.": "No es una cadena de texto válida.",
    "Not a valid utf-8 string.": "No es una cadena UTF-8 válida.",
    "Not a valid integer.": "No es un número entero válido.",
    "Not a valid number.": "No es un número válido.",
    "Number too large.": "Número demasiado grande.",
    "Special numeric values (nan or infinity) are not permitted.":
        "No se admiten valores numéricos especiales (nan o infinito).",
    "Not a valid boolean.": "No es un booleano válido.",
    "Not a valid list.": "No es una lista válida.",
    "Not a valid mapping type.": "No es un objeto válido.",
    # Validators
    "Length must be between {min} and {max}.": "La longitud debe estar entre {min} y {max}.",
    "Length must be {equal}.": "La longitud debe ser {equal}.",
    "Shorter than minimum length {min}.": "Más corto que la longitud mínima {min}.",
    "Longer than maximum length {max}.": "Más largo que la longitud máxima {max}.",
    "Must be one of: {choices}.": "Debe ser uno de: {choices}.",
    "Must be equal to {other}.": "Debe ser igual a {other}.",
    "String does not match expected pattern.": "El texto no sigue el patrón esperado.",
    # The project's own messages (service/api/schemas.py)
    "Expected a whole number of points or a list of items.":
        "Se esperaba un número entero de puntos o una lista de combinaciones.",
    "At most {count} items.": "Como máximo {count} combinaciones.",
    "Give either plays or cards.": "Indique plays o cards, uno de los dos.",
}


def _range_messages() -> dict[str, str]:
    """validate.Range's messages: it words each bound by whether it is inclusive."""
    lower = {"greater than or equal to": "mayor o igual que", "greater than": "mayor que"}
    upper = {"less than or equal to": "menor o igual que", "less than": "menor que"}
    messages = {}
    for en_low, es_low in lower.items():
        messages[f"Must be {en_low} {{min}}."] = f"Debe ser {es_low} {{min}}."
        for en_up, es_up in upper.items():
            messages[f"Must be {en_low} {{min}} and {en_up} {{max}}."] = (
                f"Debe ser {es_low} {{min}} y {es_up} {{max}}.")
    for en_up, es_up in upper.items():
        messages[f"Must be {en_up} {{max}}."] = f"Debe ser {es_up} {{max}}."
    return messages


SPANISH.update(_range_messages())

# A parameter is one word (a number, a length) unless it lists choices or a value.
_WORD = r"\S+"
_PARAM_PATTERN = {"choices": ".+", "other": ".+"}


def _pattern(template: str) -> re.Pattern:
    parts = []
    for literal, name, _, _ in string.Formatter().parse(template):
        parts.append(re.escape(literal))
        if name:
            parts.append(f"(?P<{name}>{_PARAM_PATTERN.get(name, _WORD)})")
    return re.compile("".join(parts))


_FIXED = {english: spanish for english, spanish in SPANISH.items() if "{" not in english}
_TEMPLATES = [(_pattern(english), spanish) for english, spanish in SPANISH.items()
              if "{" in english]


def translate(message: str, language: str) -> str:
    """`message` (marshmallow's English) in `language`; unchanged when it has no translation."""
    if language != "es":
        return message
    fixed = _FIXED.get(message)
    if fixed is not None:
        return fixed
    for pattern, spanish in _TEMPLATES:
        found = pattern.fullmatch(message)
        if found:
            return spanish.format(**found.groupdict())
    return message


def translate_errors(errors: dict[str, list[str]], language: str) -> dict[str, list[str]]:
    """Flattened messages by field ({"hand": [...]}) with every message in `language`."""
    if language != "es":
        return errors
    return {field: [translate(message, language) for message in messages]
            for field, messages in errors.items()}
