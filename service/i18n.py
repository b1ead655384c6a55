"""English and Spanish messages, numbers as words, and Accept-Language negotiation."""
from __future__ import annotations

import string

LANGUAGES = ("en", "es")
DEFAULT_LANGUAGE = "en"

_MAX_HEADER = 1024  # an Accept-Language longer than this is read only this far


def negotiate(accept_language: str | None) -> str:
    """The supported language the client prefers most (RFC 9110 q-values); English by default.

    Garbage never raises: unreadable entries are skipped.
    """
    if not accept_language:
        return DEFAULT_LANGUAGE
    best, best_q = DEFAULT_LANGUAGE, 0.0
    for position, entry in enumerate(accept_language[:_MAX_HEADER].split(",")):
        tag, _, params = entry.partition(";")
        primary = tag.strip().lower().split("-", 1)[0]
        if primary == "*":
            primary = DEFAULT_LANGUAGE
        if primary not in LANGUAGES:
            continue
        q = _quality(params)
        # Equal q-values keep the earlier entry, as the client listed it first.
        if q > best_q:
            best, best_q = primary, q
    return best


def _quality(params: str) -> float:
    for param in params.split(";"):
        name, _, value = param.partition("=")
        if name.strip().lower() == "q":
            try:
                q = float(value.strip())
            except ValueError:
                return 0.0
            return q if 0.0 <= q <= 1.0 else 0.0
    return 1.0


_EN_UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
             "fourteen fifteen sixteen seventeen eighteen nineteen").split()
_EN_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
_ES_UNITS = ("cero uno dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce "
             "quince dieciséis diecisiete dieciocho diecinueve veinte veintiuno veintidós "
             "veintitrés veinticuatro veinticinco veintiséis veintisiete veintiocho "
             "veintinueve").split()
_ES_TENS = "_ _ _ treinta cuarenta cincuenta sesenta setenta ochenta noventa".split()


def number_words(number: int, language: str) -> str:
    """`number` (0-999) spelt out: 29 -> "twenty-nine" / "veintinueve"; larger ones as digits."""
    if not 0 <= number < 1000:
        return str(number)
    if language == "es":
        return _spanish_number(number)
    return _english_number(number)


def _english_number(number: int) -> str:
    if number < 20:
        return _EN_UNITS[number]
    if number < 100:
        tens, units = divmod(number, 10)
        return _EN_TENS[tens] + (f"-{_EN_UNITS[units]}" if units else "")
    hundreds, rest = divmod(number, 100)
    words = f"{_EN_UNITS[hundreds]} hundred"
    return words + (f" and {_english_number(rest)}" if rest else "")


_ES_HUNDREDS = ("_ ciento doscientos trescientos cuatrocientos quinientos seiscientos "
                "setecientos ochocientos novecientos").split()


def _spanish_number(number: int) -> str:
    if number < 30:
        return _ES_UNITS[number]
    if number < 100:
        tens, units = divmod(number, 10)
        return _ES_TENS[tens] + (f" y {_ES_UNITS[units]}" if units else "")
    if number == 100:
        return "cien"
    hundreds, rest = divmod(number, 100)
    return _ES_HUNDREDS[hundreds] + (f" {_spanish_number(rest)}" if rest else "")


# Problem titles and details by stable error code. Details are format strings over the
# error's params plus `where` (the field and index, e.g. "hand[2]").
PROBLEMS: dict[str, dict[str, tuple[str, str]]] = {
    "en": {
        "unknown_card": ("Unknown card", '{where}: "{text}" is not a card'),
        "duplicate_card": ("Duplicate card", "{where}: {card} appears more than once"),
        "wrong_card_count": ("Wrong number of cards",
                             "{field}: expected {expected} cards, got {got}"),
        "card_not_held": ("Card not held", "{where}: {card} is not one of the cards shown"),
        "count_exceeds_31": ("Count over 31", "{where}: the count reaches {count}, over 31"),
        "play_out_of_turn": ("Play out of turn",
                             "{where}: seat {seat} played {card}, but it was seat {expected}'s "
                             "turn"),
        "play_skipped_playable": ("Player skipped",
                                  "{where}: {card} does not fit the count of {count}, but "
                                  "{playable} (played later) did: a player who can play must "
                                  "play"),
        "seats_not_inferable": ("Impossible sequence",
                                "{where}: no seating of the cards played fits the rules of the "
                                "play; give the seats"),
        "wrong_play_count": ("Wrong number of plays",
                             "{where}: seat {seat} played {got} cards; each seat plays "
                             "{expected}"),
        "wrong_total_plays": ("Wrong number of plays",
                              "{where}: {players} players play {expected} cards in all, got "
                              "{got}"),
        "seat_out_of_range": ("Unknown seat", "{where}: there is no seat {seat} with {players} "
                                         "players"),
        "validation_failed": ("Invalid request", "The request is not valid: {fields}"),
        "invalid_json": ("Bad request", "The request body is not valid JSON"),
        "bad_request": ("Bad request", "The request cannot be read"),
        "not_found": ("Not found", "Nothing at {path}"),
        "method_not_allowed": ("Method not allowed",
                               "{method} is not allowed on {path}; allowed: {allowed}"),
        "not_acceptable": ("Not acceptable", "The response can only be JSON"),
        "unsupported_media_type": ("Unsupported media type",
                                   "Send the request body as application/json"),
        "payload_too_large": ("Payload too large",
                              "The request body is larger than {limit} bytes"),
        "not_ready": ("Service unavailable", "The service is not ready: {failing}"),
        "http_error": ("HTTP error", "{description}"),
        "internal_error": ("Internal server error",
                           "An unexpected error occurred; it has been logged"),
    },
    "es": {
        "unknown_card": ("Carta desconocida", '{where}: "{text}" no es una carta'),
        "duplicate_card": ("Carta repetida", "{where}: {card} aparece más de una vez"),
        "wrong_card_count": ("Número de cartas incorrecto",
                             "{field}: se esperaban {expected} cartas y hay {got}"),
        "card_not_held": ("Carta ausente", "{where}: {card} no es una de las cartas mostradas"),
        "count_exceeds_31": ("Cuenta mayor que 31",
                             "{where}: la cuenta llega a {count}, más de 31"),
        "play_out_of_turn": ("Jugada fuera de turno",
                             "{where}: el asiento {seat} jugó {card}, pero era el turno del "
                             "asiento {expected}"),
        "play_skipped_playable": ("Jugador saltado",
                                  "{where}: {card} no cabe en la cuenta de {count}, pero "
                                  "{playable} (jugada después) sí: quien puede jugar debe jugar"),
        "seats_not_inferable": ("Secuencia imposible",
                                "{where}: ningún reparto de las cartas jugadas entre los asientos "
                                "cumple las reglas del juego; indique los asientos"),
        "wrong_play_count": ("Número de jugadas incorrecto",
                             "{where}: el asiento {seat} jugó {got} cartas; cada asiento juega "
                             "{expected}"),
        "wrong_total_plays": ("Número de jugadas incorrecto",
                              "{where}: {players} jugadores juegan {expected} cartas en total, "
                              "hay {got}"),
        "seat_out_of_range": ("Asiento desconocido", "{where}: no hay asiento {seat} con {players} "
                                                "jugadores"),
        "validation_failed": ("Petición no válida", "La petición no es válida: {fields}"),
        "invalid_json": ("Petición incorrecta", "El cuerpo de la petición no es JSON válido"),
        "bad_request": ("Petición incorrecta", "No se puede leer la petición"),
        "not_found": ("No encontrado", "No hay nada en {path}"),
        "method_not_allowed": ("Método no permitido",
                               "{method} no está permitido en {path}; se permite: {allowed}"),
        "not_acceptable": ("No aceptable", "La respuesta solo puede ser JSON"),
        "unsupported_media_type": ("Tipo de contenido no admitido",
                                   "Envíe el cuerpo de la petición como application/json"),
        "payload_too_large": ("Petición demasiado grande",
                              "El cuerpo de la petición ocupa más de {limit} bytes"),
        "not_ready": ("Servicio no disponible", "El servicio no está listo: {failing}"),
        "http_error": ("Error HTTP", "{description}"),
        "internal_error": ("Error interno del servidor",
                           "Ocurrió un error inesperado; ha quedado registrado"),
    },
}


def register_problems(messages: dict[str, dict[str, tuple[str, str]]]) -> None:
    """Add a module's problem texts ({language: {code: (title, detail)}}) to PROBLEMS; texts
    already there are kept."""
    for language, texts in messages.items():
        catalogue = PROBLEMS.setdefault(language, {})
        for code, text in texts.items():
            catalogue.setdefault(code, text)


def problem_text(code: str, language: str, params: dict, fallback: str) -> tuple[str, str]:
    """(title, detail) for an error code; `fallback` is the detail when the code or a param is
    unknown, so a new error code is never worse than its English message."""
    catalogue = PROBLEMS.get(language, PROBLEMS[DEFAULT_LANGUAGE])
    title, template = catalogue.get(code) or PROBLEMS[DEFAULT_LANGUAGE].get(code) or ("", "")
    if not template:
        return title or code.replace("_", " ").capitalize(), fallback
    fields = [name for _, name, _, _ in string.Formatter().parse(template) if name]
    if any(name not in params for name in fields):
        return title, fallback
    return title, template.format(**params)


# Words of the show and the play, by language.
PHRASES: dict[str, dict[str, str]] = {
    "en": {
        "fifteen_call": "fifteen {n}",
        "pair": "a pair", "three_of_a_kind": "a pair royal",
        "four_of_a_kind": "a double pair royal",
        "run": "a run of {k}", "run_2": "a double run of {k}", "run_3": "a triple run of {k}",
        "run_4": "a double double run of {k}", "runs": "{m} runs of {k}",
        "flush": "a flush of {k}", "nobs": "one for his nobs",
        "and": " and ", "makes": "{calls} makes {total}", "nothing": "no points",
        "kind.fifteen": "fifteen", "kind.pair": "pair", "kind.run": "run",
        "kind.flush": "flush", "kind.nobs": "nobs",
        "explain.correct": "Claimed {claimed}: correct.",
        "explain.wrong": "Claimed {claimed}, worth {actual}.",
        "explain.breakdown": "The count is: {items}.",
        "explain.missed": "Missed {points}: {items}.",
        "explain.wrong_items": "Not there, {points}: {items}.",
        "explain.item": "{kind} {cards} for {points}",
    },
    "es": {
        "fifteen_call": "quince {n}",
        "pair": "un par", "three_of_a_kind": "un trío", "four_of_a_kind": "un póquer",
        "run": "una escalera de {k}", "run_2": "una escalera doble de {k}",
        "run_3": "una escalera triple de {k}", "run_4": "una escalera cuádruple de {k}",
        "runs": "{m} escaleras de {k}",
        "flush": "un color de {k}", "nobs": "uno por sus nobs",
        "and": " y ", "makes": "{calls} suman {total}", "nothing": "ningún punto",
        "kind.fifteen": "quince", "kind.pair": "par", "kind.run": "escalera",
        "kind.flush": "color", "kind.nobs": "nobs",
        "explain.correct": "Declarados {claimed}: correcto.",
        "explain.wrong": "Declarados {claimed}, valen {actual}.",
        "explain.breakdown": "La cuenta es: {items}.",
        "explain.missed": "Faltan {points}: {items}.",
        "explain.wrong_items": "No existen, {points}: {items}.",
        "explain.item": "{kind} {cards} por {points}",
    },
}


def phrase(key: str, language: str, **params) -> str:
    template = PHRASES.get(language, PHRASES[DEFAULT_LANGUAGE])[key]
    return template.format(**params) if params else template
