"""Every text the API shows people, in English and Spanish, in one place.

- Problem titles and details by error code. Details are format strings over the error's params
  plus `where` (the field and index at fault, e.g. "hand[2]"); a detail whose params are not all
  there falls back to the error's own (English) message.
- marshmallow's field messages in Spanish. The schemas (and webargs, for query strings) produce
  English messages; a Spanish request gets them translated by matching the English text against
  templates. A message no template matches stays in English.

The game's own words (the count of a show, numbers) are speech, not problems: service/speech.py.
"""
from __future__ import annotations

import re
import string

DEFAULT_LANGUAGE = "en"

# code -> (title, detail)
PROBLEMS: dict[str, dict[str, tuple[str, str]]] = {
    "en": {
        # Cards, shows, pegging and the check of a whole play
        "unknown_card": ("Unknown card", "{where}: \"{text}\" is not a card"),
        "duplicate_card": ("Duplicate card", "{where}: {card} appears more than once"),
        "card_not_held": ("Card not held", "{where}: {card} is not one of the cards shown"),
        "ambiguous_card": ("Ambiguous card",
                           "{where}: \"{text}\" could be any of {cards}; name the suit too"),
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
                             "{where}: seat {seat} played {got} cards; each seat plays {expected}"),
        "wrong_total_plays": ("Wrong number of plays",
                              "{where}: {players} players play {expected} cards in all, got {got}"),
        "seat_out_of_range": ("Unknown seat",
                              "{where}: there is no seat {seat} with {players} players"),
        # Analysis
        "wrong_hand_size": ("Wrong hand size",
                            "{field}: with {players} players a dealt hand has {expected} cards, "
                            "not {got}"),
        "dealer_owns_crib": ("The crib is the dealer's",
                             "{field}: a hand of {cards} cards with {players} players is the "
                             "dealer's, so the crib is yours"),
        "invalid_teams": ("Teams do not fit",
                          "{field}: teams {teams} do not fit {players} players"),
        "card_seen_twice": ("Card in two places", "{where}: {card} is also in {first}"),
        "count_is_31": ("Count of 31", "{field}: at 31 the count starts again; send an empty pile"),
        "count_mismatch": ("Wrong count", "{field}: the pile counts {actual}, not {count}"),
        "too_many_cards": ("Too many cards",
                           "{field}: a player holds at most {max} cards in the play"),
        "invalid_next_cards": ("Impossible hand size",
                               "{field}: the next player cannot hold {got} cards"),
        "game_already_won": ("Game already won", "{field}: a score has already reached {target}"),
        "wrong_score_count": ("Wrong number of scores",
                              "{field}: give {expected} scores, one per side, not {got}"),
        "dealer_out_of_range": ("No such dealer",
                                "{field}: with {players} players the dealer is a seat from 0 "
                                "to {last}, not {got}"),
        "invalid_players": ("Wrong player count", "{field}: 2 to 6 players, not {players}"),
        "wrong_hand_sizes": ("Wrong hand sizes",
                             "{field}: with {players} players give {expected} hand sizes, not "
                             "{got}"),
        "dealer_mismatch": ("Two dealers", "{field}: dealer says you dealt, not seat {seat}"),
        "crib_owner_mismatch": ("Two cribs",
                                "{field}: own_crib is {own_crib}, but seat {seat} deals"),
        "dealer_hand_mismatch": ("Dealer and hand disagree",
                                 "{field}: with {players} players a hand of {cards} cards says "
                                 "whether you deal, and dealer_seat {seat} disagrees"),
        "scores_given_twice": ("Scores given twice",
                               "{field}: give scores, or own_score and opponent_score, not "
                               "both"),
        "scores_disagree": ("Scores disagree",
                            "{field}: the leading other side has {leading}, not "
                            "opponent_score {opponent_score}"),
        "played_card_unseen": ("Card not played", "{where}: {card} is neither in pile nor in seen"),
        "impossible_hands": ("Impossible hands",
                             "{field}: the cards you have not seen cannot make the other "
                             "players' hands"),
        # Games: the table, the seat tokens, the rules
        "game_not_found": ("Game not found", "There is no game {game_id}; games expire when idle"),
        "missing_token": ("Seat token required",
                          "Send the seat token as Authorization: Bearer <token>"),
        "invalid_token": ("Not a seat of this game", "The token holds no seat of this game"),
        "not_your_seat": ("Not your seat", "Your token holds seat {seat}"),
        "invalid_invite": ("Invalid invite", "The invite code opens no seat of this game"),
        "invalid_ticket": ("Invalid stream ticket",
                           "The stream ticket is unknown, already used or expired; ask for a "
                           "new one"),
        "invalid_last_event_id": ("Invalid Last-Event-ID",
                                  "Last-Event-ID must be the number of an event"),
        "seat_taken": ("Seat taken", "Seat {seat} is already taken"),
        # Players and rematches
        "invalid_player_token": ("Unknown player",
                                 "The player token is unknown or has expired"),
        "player_already_seated": ("Already seated",
                                  "This player holds another seat of this game"),
        # Seeks
        "seek_not_found": ("Seek not found",
                           "No seek under this id: never made, or expired"),
        "not_your_seek": ("Not your seek", "This seek is another player's"),
        "game_not_over": ("Game not over",
                          "A rematch comes after the game is over; it is in {phase}"),
        "rematch_already_accepted": ("Rematch already accepted",
                                     "Seat {seat} has accepted this rematch already"),
        "no_rematch_offer": ("No rematch offer", "There is no open rematch offer to decline"),
        # Webhooks
        "invalid_webhook_url": ("Invalid webhook URL",
                                "{field}: a webhook URL is https://host/path, without "
                                "credentials or a fragment"),
        "webhook_address_refused": ("Webhook address refused",
                                    "{field}: the host {host} is not allowed: a webhook host "
                                    "must resolve to public internet addresses only (not "
                                    "private, loopback, link-local or reserved ones)"),
        "webhook_host_unresolved": ("Webhook host unknown",
                                    "{field}: {host} does not resolve"),
        "too_many_webhooks": ("Too many webhooks", "At most {limit} webhooks; delete one first"),
        "webhook_not_found": ("Webhook not found", "You have no webhook {webhook_id}"),
        "invalid_push_keys": ("Invalid push subscription keys",
                              "{field}: p256dh must be a P-256 public key (65 bytes) and auth 16 "
                              "bytes, each in base64url, as PushManager.subscribe() gives them"),
        "too_many_push_subscriptions": ("Too many push subscriptions",
                                        "At most {limit} push subscriptions; delete one first"),
        "push_subscription_not_found": ("Push subscription not found",
                                        "You have no push subscription {subscription_id}"),
        "version_mismatch": ("Game has moved on",
                             "The game is at version {version}; read it again"),
        "idempotency_key_reused": ("Idempotency-Key reused",
                                   "This Idempotency-Key was sent with a different request"),
        "invalid_idempotency_key": ("Invalid Idempotency-Key",
                                    "Idempotency-Key must be 1 to 255 visible ASCII characters"),
        "after_out_of_range": ("No such event", "The game has {events} events, not {after}"),
        "invalid_cursor": ("Invalid cursor", "The cursor is not one a page gave"),
        "no_human_seat": ("No human seat", "At least one seat must be human"),
        "invalid_cursor": ("Unknown cursor", "This cursor was not given by this service"),
        "invalid_season": ("No such season", "No season {season}: a month as 2026-12, or all"),
        "invalid_format": ("No such format", "No format {format}; choose {allowed}"),
        "rated_needs_players": ("Rated games are between players",
                                "A rated game needs a player token and human seats only"),
        "creator_not_human": ("Creator seat not human", "Seat {seat} is not a human seat"),
        "unknown_level": ("Unknown computer level", "No computer level {level}; choose {allowed}"),
        "store_unavailable": ("Service unavailable",
                              "The game store cannot be reached; try again shortly"),
        "store_full": ("Game store full", "The game store is full; try again later"),
        "game_busy": ("Game busy", "Too many simultaneous changes to this game; try again"),
        "player_busy": ("Player busy", "Too many simultaneous changes to this player; try again"),
        "compute_busy": ("Compute busy", "The queue of searches is full; retry after "
                                         "{retry_after} s"),
        "compute_unavailable": ("Compute unavailable",
                                "No compute process answered in time; try again shortly"),
        "cpu_budget_exhausted": ("CPU budget spent",
                                 "This client has spent its {budget_ms} ms of CPU a minute on "
                                 "analyses; retry after {retry_after} s"),
        "too_many_live_games": ("Too many live games",
                                "This client has {limit} games in play or seeks open already; "
                                "finish or cancel one, or wait for an abandoned game to expire, "
                                "before starting another"),
        "invalid_options": ("Invalid options", "Option {field}: expected {allowed}"),
        "invalid_action": ("Invalid action", "The action is not well formed"),
        "not_your_turn": ("Not your turn", "It is not your turn"),
        "wrong_phase": ("Wrong phase", "This action is not possible during {phase}"),
        "card_not_in_hand": ("Card not in hand", "{card} is not in your hand"),
        "count_would_exceed_31": ("Count over 31", "{card} would take the count past 31"),
        "wrong_discard_count": ("Wrong number of cards", "Discard {expected} card(s)"),
        "invalid_cut_depth": ("Invalid cut", "The cut depth is out of range"),
        "game_over": ("Game over", "The game is over"),
        "too_late_to_abort": ("Too late to abort",
                              "A game can be aborted only before its first card is played"),
        "not_timed_out": ("Not timed out", "The turn timer has not run out"),
        "nothing_to_call": ("Nothing to call", "There are no missed points to call"),
        "not_a_claim_phase": ("No count under way", "No hand is being counted"),
        "invalid_claim": ("Invalid claim", "The claim does not hold together"),
        # Requests and the service
        "validation_failed": ("Invalid request", "The request is not valid: {fields}"),
        "invalid_items": ("Invalid items",
                          "{count} of the batch's items are not valid; the first: {first}"),
        "invalid_json": ("Bad request", "The request body is not valid JSON"),
        "invalid_if_match": ("Malformed If-Match",
                             "{header} must list quoted entity-tags, such as \"7-0\", or be *"),
        "bad_request": ("Bad request", "The request cannot be read"),
        "request_timeout": ("Request timeout", "The request body did not arrive in time"),
        "uri_too_long": ("URI too long", "The request line is longer than the server reads"),
        "header_fields_too_large": ("Header fields too large",
                                    "The request's header fields are more or longer than the "
                                    "server reads"),
        "too_many_connections": ("Too many connections",
                                 "This address holds as many connections as it may; close one"),
        "not_found": ("Not found", "Nothing at {path}"),
        "method_not_allowed": ("Method not allowed",
                               "{method} is not allowed on {path}; allowed: {allowed}"),
        "not_acceptable": ("Not acceptable", "The response can only be JSON"),
        "unsupported_media_type": ("Unsupported media type",
                                   "Send the request body as application/json"),
        "payload_too_large": ("Payload too large", "The request body is larger than {limit} bytes"),
        "not_ready": ("Service unavailable", "The service is not ready: {failing}"),
        "metrics_token_required": ("Metrics token required",
                                   "Send the metrics token as Authorization: Bearer <token>"),
        "http_error": ("HTTP error", "{description}"),
        "internal_error": ("Internal server error",
                           "An unexpected error occurred; it has been logged"),
        # Rate limits
        "rate_limited": ("Too many requests", "More than {limit}; retry after {retry_after} s"),
    },
    "es": {
        # Cards, shows, pegging and the check of a whole play
        "unknown_card": ("Carta desconocida", "{where}: \"{text}\" no es una carta"),
        "duplicate_card": ("Carta repetida", "{where}: {card} aparece más de una vez"),
        "card_not_held": ("Carta ausente", "{where}: {card} no es una de las cartas mostradas"),
        "ambiguous_card": ("Carta ambigua",
                           "{where}: \"{text}\" puede ser {cards}; indique también el palo"),
        "count_exceeds_31": ("Cuenta mayor que 31",
                             "{where}: la cuenta llega a {count}, más de 31"),
        "play_out_of_turn": ("Jugada fuera de turno",
                             "{where}: el asiento {seat} jugó {card}, pero era el turno del "
                             "asiento {expected}"),
        "play_skipped_playable": ("Jugador saltado",
                                  "{where}: {card} no cabe en la cuenta de {count}, pero "
                                  "{playable} (jugada después) sí: quien puede jugar debe jugar"),
        "seats_not_inferable": ("Secuencia imposible",
                                "{where}: ningún reparto de las cartas jugadas entre los "
                                "asientos cumple las reglas del juego; indique los asientos"),
        "wrong_play_count": ("Número de jugadas incorrecto",
                             "{where}: el asiento {seat} jugó {got} cartas; cada asiento juega "
                             "{expected}"),
        "wrong_total_plays": ("Número de jugadas incorrecto",
                              "{where}: {players} jugadores juegan {expected} cartas en total, "
                              "hay {got}"),
        "seat_out_of_range": ("Asiento desconocido",
                              "{where}: no hay asiento {seat} con {players} jugadores"),
        # Analysis
        "wrong_hand_size": ("Mano de tamaño incorrecto",
                            "{field}: con {players} jugadores se reparten {expected} cartas, no "
                            "{got}"),
        "dealer_owns_crib": ("La cuna es del repartidor",
                             "{field}: una mano de {cards} cartas con {players} jugadores es la "
                             "del repartidor, así que la cuna es suya"),
        "invalid_teams": ("Equipos imposibles",
                          "{field}: los equipos {teams} no encajan con {players} jugadores"),
        "card_seen_twice": ("Carta en dos sitios", "{where}: {card} también está en {first}"),
        "count_is_31": ("Cuenta de 31",
                        "{field}: en 31 la cuenta vuelve a empezar; envíe la mesa vacía"),
        "count_mismatch": ("Cuenta incorrecta", "{field}: la mesa suma {actual}, no {count}"),
        "too_many_cards": ("Demasiadas cartas",
                           "{field}: en el juego nadie tiene más de {max} cartas"),
        "invalid_next_cards": ("Mano imposible",
                               "{field}: el siguiente jugador no puede tener {got} cartas"),
        "game_already_won": ("Partida ya ganada", "{field}: un marcador ya ha llegado a {target}"),
        "wrong_score_count": ("Número de marcadores incorrecto",
                              "{field}: da {expected} marcadores, uno por bando, no {got}"),
        "dealer_out_of_range": ("Repartidor imposible",
                                "{field}: con {players} jugadores el repartidor es un asiento "
                                "de 0 a {last}, no {got}"),
        "invalid_players": ("Número de jugadores incorrecto",
                            "{field}: de 2 a 6 jugadores, no {players}"),
        "wrong_hand_sizes": ("Tamaños de mano incorrectos",
                             "{field}: con {players} jugadores indique {expected} tamaños de "
                             "mano, no {got}"),
        "dealer_mismatch": ("Dos repartidores",
                            "{field}: dealer dice que repartió usted, no el asiento {seat}"),
        "crib_owner_mismatch": ("Dos cunas",
                                "{field}: own_crib es {own_crib}, pero reparte el asiento "
                                "{seat}"),
        "dealer_hand_mismatch": ("Repartidor y mano no concuerdan",
                                 "{field}: con {players} jugadores una mano de {cards} cartas "
                                 "dice si usted reparte, y dealer_seat {seat} no concuerda"),
        "scores_given_twice": ("Marcadores repetidos",
                               "{field}: dé scores, o own_score y opponent_score, no ambos"),
        "scores_disagree": ("Marcadores contradictorios",
                            "{field}: el otro bando que va delante tiene {leading}, no "
                            "opponent_score {opponent_score}"),
        "played_card_unseen": ("Carta no jugada", "{where}: {card} no está ni en pile ni en seen"),
        "impossible_hands": ("Manos imposibles",
                             "{field}: las cartas que no ha visto no pueden formar las manos "
                             "de los otros jugadores"),
        # Games: the table, the seat tokens, the rules
        "game_not_found": ("Partida no encontrada",
                           "No hay partida {game_id}; las partidas caducan sin actividad"),
        "missing_token": ("Falta el token del asiento",
                          "Envíe el token del asiento como Authorization: Bearer <token>"),
        "invalid_token": ("No es un asiento de esta partida",
                          "El token no corresponde a ningún asiento de esta partida"),
        "not_your_seat": ("No es su asiento", "Su token es del asiento {seat}"),
        "invalid_invite": ("Invitación no válida",
                           "El código de invitación no abre ningún asiento de esta partida"),
        "invalid_ticket": ("Pase de stream no válido",
                           "El pase de stream no existe, ya se usó o caducó; pida uno nuevo"),
        "invalid_last_event_id": ("Last-Event-ID no válido",
                                  "Last-Event-ID debe ser el número de un evento"),
        "seat_taken": ("Asiento ocupado", "El asiento {seat} ya está ocupado"),
        # Jugadores y revanchas
        "invalid_player_token": ("Jugador desconocido",
                                 "El token de jugador no existe o ha caducado"),
        "player_already_seated": ("Ya está sentado",
                                  "Este jugador ocupa otro asiento de esta partida"),
        "seek_not_found": ("Búsqueda no encontrada",
                           "No hay ninguna búsqueda con este id: nunca se hizo, o caducó"),
        "not_your_seek": ("No es tu búsqueda", "Esta búsqueda es de otro jugador"),
        "game_not_over": ("Partida en curso",
                          "La revancha llega cuando termina la partida; está en {phase}"),
        "rematch_already_accepted": ("Revancha ya aceptada",
                                     "El asiento {seat} ya ha aceptado esta revancha"),
        "no_rematch_offer": ("No hay revancha",
                             "No hay ninguna oferta de revancha abierta que rechazar"),
        "invalid_webhook_url": ("URL de webhook no válida",
                                "{field}: una URL de webhook es https://host/ruta, sin "
                                "credenciales ni fragmento"),
        "webhook_address_refused": ("Dirección de webhook rechazada",
                                    "{field}: el host {host} no está permitido: un host de "
                                    "webhook debe resolverse solo a direcciones públicas de "
                                    "internet (no privadas, de loopback, de enlace local ni "
                                    "reservadas)"),
        "webhook_host_unresolved": ("Host de webhook desconocido",
                                    "{field}: {host} no se resuelve"),
        "too_many_webhooks": ("Demasiados webhooks",
                              "Como mucho {limit} webhooks; borre uno antes"),
        "webhook_not_found": ("Webhook no encontrado", "No tiene ningún webhook {webhook_id}"),
        "invalid_push_keys": ("Claves de suscripción push no válidas",
                              "{field}: p256dh debe ser una clave pública P-256 (65 bytes) y "
                              "auth 16 bytes, ambas en base64url, como las da "
                              "PushManager.subscribe()"),
        "too_many_push_subscriptions": ("Demasiadas suscripciones push",
                                        "Como mucho {limit} suscripciones push; borre una antes"),
        "push_subscription_not_found": ("Suscripción push no encontrada",
                                        "No tiene ninguna suscripción push {subscription_id}"),
        "version_mismatch": ("La partida ha avanzado",
                             "La partida está en la versión {version}; vuelva a leerla"),
        "idempotency_key_reused": ("Idempotency-Key repetida",
                                   "Esta Idempotency-Key se envió con otra petición"),
        "invalid_idempotency_key": ("Idempotency-Key no válida",
                                    "Idempotency-Key debe tener de 1 a 255 caracteres ASCII "
                                    "visibles"),
        "after_out_of_range": ("No existe ese evento",
                               "La partida tiene {events} eventos, no {after}"),
        "invalid_cursor": ("Cursor no válido", "El cursor no es uno que dio una página"),
        "no_human_seat": ("Ningún asiento humano", "Al menos un asiento debe ser humano"),
        "invalid_cursor": ("Cursor desconocido", "Este servicio no dio este cursor"),
        "invalid_season": ("No existe esa temporada",
                           "No existe la temporada {season}: un mes como 2026-12, o all"),
        "invalid_format": ("No existe ese formato",
                           "No existe el formato {format}; elija {allowed}"),
        "rated_needs_players": ("Las partidas puntuadas son entre jugadores",
                                "Una partida puntuada necesita un token de jugador y solo "
                                "asientos humanos"),
        "creator_not_human": ("El asiento del creador no es humano",
                              "El asiento {seat} no es humano"),
        "unknown_level": ("Nivel desconocido", "No existe el nivel {level}; elija {allowed}"),
        "store_unavailable": ("Servicio no disponible",
                              "No se puede acceder al almacén de partidas; inténtelo en breve"),
        "store_full": ("Almacén de partidas lleno",
                       "El almacén de partidas está lleno; inténtelo más tarde"),
        "game_busy": ("Partida ocupada",
                      "Demasiados cambios simultáneos en esta partida; inténtelo de nuevo"),
        "player_busy": ("Jugador ocupado",
                        "Demasiados cambios simultáneos en este jugador; inténtelo de nuevo"),
        "compute_busy": ("Cálculo ocupado", "La cola de búsquedas está llena; vuelva a "
                                            "intentarlo dentro de {retry_after} s"),
        "compute_unavailable": ("Cálculo no disponible",
                                "Ningún proceso de cálculo respondió a tiempo; inténtelo en "
                                "breve"),
        "cpu_budget_exhausted": ("Presupuesto de CPU agotado",
                                 "Este cliente ya gastó sus {budget_ms} ms de CPU por minuto en "
                                 "análisis; vuelva a intentarlo dentro de {retry_after} s"),
        "too_many_live_games": ("Demasiadas partidas en juego",
                                "Este cliente ya tiene {limit} partidas en juego o búsquedas "
                                "abiertas; termine o cancele una, o espere a que caduque una "
                                "partida abandonada, antes de empezar otra"),
        "invalid_options": ("Opciones no válidas", "Opción {field}: se esperaba {allowed}"),
        "invalid_action": ("Acción no válida", "La acción no está bien formada"),
        "not_your_turn": ("No es su turno", "No es su turno"),
        "wrong_phase": ("Fase equivocada", "Esta acción no es posible durante {phase}"),
        "card_not_in_hand": ("Carta ausente", "{card} no está en su mano"),
        "count_would_exceed_31": ("Cuenta mayor que 31", "{card} haría pasar la cuenta de 31"),
        "wrong_discard_count": ("Número de cartas incorrecto", "Descarte {expected} carta(s)"),
        "invalid_cut_depth": ("Corte no válido", "La profundidad del corte está fuera de rango"),
        "game_over": ("Partida terminada", "La partida ha terminado"),
        "too_late_to_abort": ("Demasiado tarde para anular",
                              "Una partida solo se puede anular antes de jugar su primera carta"),
        "not_timed_out": ("Tiempo no agotado", "El tiempo del turno no se ha agotado"),
        "nothing_to_call": ("Nada que reclamar", "No hay puntos olvidados que reclamar"),
        "not_a_claim_phase": ("No se está contando", "No se está contando ninguna mano"),
        "invalid_claim": ("Declaración no válida", "La declaración no es coherente"),
        # Requests and the service
        "validation_failed": ("Petición no válida", "La petición no es válida: {fields}"),
        "invalid_items": ("Elementos no válidos",
                          "{count} de los elementos del lote no son válidos; el primero: {first}"),
        "invalid_json": ("Petición incorrecta", "El cuerpo de la petición no es JSON válido"),
        "invalid_if_match": ("If-Match mal formado",
                             "{header} debe listar etiquetas entre comillas, como \"7-0\", o ser *"),
        "bad_request": ("Petición incorrecta", "No se puede leer la petición"),
        "request_timeout": ("Tiempo de espera agotado",
                            "El cuerpo de la petición no llegó a tiempo"),
        "uri_too_long": ("URI demasiado larga",
                         "La línea de la petición es más larga de lo que lee el servidor"),
        "header_fields_too_large": ("Cabeceras demasiado grandes",
                                    "Las cabeceras de la petición son más o más largas de lo que "
                                    "lee el servidor"),
        "too_many_connections": ("Demasiadas conexiones",
                                 "Esta dirección tiene todas las conexiones que puede; cierre una"),
        "not_found": ("No encontrado", "No hay nada en {path}"),
        "method_not_allowed": ("Método no permitido",
                               "{method} no está permitido en {path}; se permite: {allowed}"),
        "not_acceptable": ("No aceptable", "La respuesta solo puede ser JSON"),
        "unsupported_media_type": ("Tipo de contenido no admitido",
                                   "Envíe el cuerpo de la petición como application/json"),
        "payload_too_large": ("Petición demasiado grande",
                              "El cuerpo de la petición ocupa más de {limit} bytes"),
        "not_ready": ("Servicio no disponible", "El servicio no está listo: {failing}"),
        "metrics_token_required": ("Token de métricas requerido",
                                   "Envíe el token de métricas como Authorization: Bearer <token>"),
        "http_error": ("Error HTTP", "{description}"),
        "internal_error": ("Error interno del servidor",
                           "Ocurrió un error inesperado; ha quedado registrado"),
        # Rate limits
        "rate_limited": ("Demasiadas peticiones",
                         "Más de {limit}; reintente dentro de {retry_after} s"),
    },
}


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


# English template -> Spanish template; {params} are copied over as they are.
FIELD_MESSAGES_ES: dict[str, str] = {
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
    # The project's own messages (service/api/fields.py, service/api/scoring/schemas.py)
    "Expected a whole number of points or a list of items.":
        "Se esperaba un número entero de puntos o una lista de combinaciones.",
    "At most {count} items.": "Como máximo {count} combinaciones.",
    "Give either plays or cards.": "Indique plays o cards, uno de los dos.",
    # service/api/images/schemas.py
    "A score is past the target of {target}.": "Un tanteo pasa de la meta de {target}.",
    "Give one for each of the {count} scores.": "Indique uno por cada uno de los {count} tanteos.",
    "A back peg is ahead of its front peg.": "Una clavija trasera va por delante de la delantera.",
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


FIELD_MESSAGES_ES.update(_range_messages())

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


_FIXED = {english: spanish for english, spanish in FIELD_MESSAGES_ES.items() if "{" not in english}
_TEMPLATES = [(_pattern(english), spanish) for english, spanish in FIELD_MESSAGES_ES.items()
              if "{" in english]


def translate_field_message(message: str, language: str) -> str:
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
    return {field: [translate_field_message(message, language) for message in messages]
            for field, messages in errors.items()}


# The words of the pictures (service/api/images): labels around the game's own words.
IMAGE_LABELS: dict[str, dict[str, str]] = {
    "en": {"hand": "Hand", "crib": "Crib", "starter": "Starter", "points": "points",
           "side": "Side {number}", "board": "Pegging board, game to {target}"},
    "es": {"hand": "Mano", "crib": "Cuna", "starter": "Carta de corte", "points": "puntos",
           "side": "Bando {number}", "board": "Tablero, partida a {target}"},
}


# What a seat of an erased player (service.games.accounts.ERASED_NAME) is called.
ERASED_SEAT_NAME = {"en": "Former player", "es": "Antiguo jugador"}


def image_label(key: str, language: str, **params) -> str:
    template = IMAGE_LABELS.get(language, IMAGE_LABELS[DEFAULT_LANGUAGE])[key]
    return template.format(**params)


# The play page's own words (service/api/play.py serves them to its script at /play/texts.json).
# {name} fields are filled in by the page.
PLAY_PAGE_TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "title": "Cribbage", "intro": "Play a game to 121 against the computer.",
        "language": "Language", "your_name": "Your name", "default_name": "You",
        "level": "Computer level", "computer": "Computer",
        "level.first": "Simplest", "level.easy": "Easy", "level.medium": "Medium",
        "level.hard": "Hard",
        "start": "Start a game", "new_game": "New game",
        "board": "Pegging board", "board_alt": "Pegging board: {scores}",
        "opponent": "{name}'s cards", "table": "Table", "your_hand": "Your hand",
        "show": "The show", "log": "What happened",
        "count": "Count: {count}", "starter": "Starter: {card}, cut by {name}.",
        "no_starter": "Starter: not cut",
        "starter_caption": "Starter",
        "crib_yours": "The crib is yours.", "crib_theirs": "The crib is {name}'s.",
        "cut_for_deal": "Cut for the deal", "cut_starter": "Cut the starter",
        "discard": "Put {count} cards in the crib",
        "to_cut_for_deal": "Cut the deck: the lower card deals.",
        "to_discard": "Choose {count} cards for the crib.",
        "to_cut_starter": "Cut the deck for the starter.",
        "to_play": "Your turn: play a card.", "waiting": "Waiting for {name}.",
        "won": "{name} won the game, {scores}.",
        "show_hand": "{name}'s hand", "show_crib": "{name}'s crib",
        "show_points": "{points} points",
        "dealt": "Hand {number}: {name} deals.",
        "discarded": "{name} puts {count} cards in the crib.",
        "deal_cut": "{name} cuts {card}.", "deal_cut_won": "{name} cut the lower card and deals.",
        "cut_tie": "A tie: cut again.",
        "starter_cut": "{name} cuts the starter: {card}.",
        "heels": "{name}: two for his heels.",
        "plays": "{name} plays {card}", "to_go": "{points} to go",
        "card_played": "{name} plays {card}: {count}.",
        "card_played_points": "{name} plays {card}: {count}, {points} points.",
        "go": "{name} says go.", "last_card": "{name}: one for the last card.",
        "go_point": "{name}: one for the go.", "count_reset": "The count starts again.",
        "shown": "{name} shows {cards}: {points} points.",
        "card_label": "{rank} of {suit}",
        "ranks": "ace,two,three,four,five,six,seven,eight,nine,ten,jack,queen,king",
        "suits": "hearts,diamonds,clubs,spades", "card_back": "a card face down",
        "stream_lost": "Connection lost: reconnecting.",
        "error": "The service refused: {detail}",
    },
    "es": {
        "title": "Cribbage", "intro": "Juegue una partida a 121 contra la computadora.",
        "language": "Idioma", "your_name": "Su nombre", "default_name": "Usted",
        "level": "Nivel de la computadora", "computer": "Computadora",
        "level.first": "Elemental", "level.easy": "Fácil", "level.medium": "Medio",
        "level.hard": "Difícil",
        "start": "Empezar una partida", "new_game": "Nueva partida",
        "board": "Tablero", "board_alt": "Tablero: {scores}",
        "opponent": "Cartas de {name}", "table": "Mesa", "your_hand": "Su mano",
        "show": "El recuento", "log": "Lo que pasó",
        "count": "Cuenta: {count}", "starter": "Carta de corte: {card}, la cortó {name}.",
        "starter_caption": "Carta de corte",
        "no_starter": "Carta de corte: sin cortar",
        "crib_yours": "La cuna es suya.", "crib_theirs": "La cuna es de {name}.",
        "cut_for_deal": "Cortar para repartir", "cut_starter": "Cortar la carta de corte",
        "discard": "Echar {count} cartas a la cuna",
        "to_cut_for_deal": "Corte el mazo: reparte la carta más baja.",
        "to_discard": "Elija {count} cartas para la cuna.",
        "to_cut_starter": "Corte el mazo para la carta de corte.",
        "to_play": "Su turno: juegue una carta.", "waiting": "Esperando a {name}.",
        "won": "{name} ganó la partida, {scores}.",
        "show_hand": "Mano de {name}", "show_crib": "Cuna de {name}",
        "show_points": "{points} puntos",
        "dealt": "Mano {number}: reparte {name}.",
        "discarded": "{name} echa {count} cartas a la cuna.",
        "deal_cut": "{name} corta {card}.",
        "deal_cut_won": "{name} cortó la carta más baja y reparte.",
        "cut_tie": "Empate: se corta otra vez.",
        "starter_cut": "{name} corta la carta de corte: {card}.",
        "heels": "{name}: dos por la sota de corte.",
        "plays": "{name} juega {card}", "to_go": "faltan {points}",
        "card_played": "{name} juega {card}: {count}.",
        "card_played_points": "{name} juega {card}: {count}, {points} puntos.",
        "go": "{name} pasa.", "last_card": "{name}: uno por la última carta.",
        "go_point": "{name}: uno por el paso.", "count_reset": "La cuenta vuelve a empezar.",
        "shown": "{name} muestra {cards}: {points} puntos.",
        "card_label": "{rank} de {suit}",
        "ranks": "as,dos,tres,cuatro,cinco,seis,siete,ocho,nueve,diez,sota,reina,rey",
        "suits": "corazones,diamantes,tréboles,picas", "card_back": "una carta boca abajo",
        "stream_lost": "Se perdió la conexión: reconectando.",
        "error": "El servicio se negó: {detail}",
    },
}
