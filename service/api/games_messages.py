"""English and Spanish problem texts of the games endpoints and of the rules engine's codes."""

from __future__ import annotations

from service.i18n import register_problems

# code -> (title, detail); details use only params every raiser of the code passes.
MESSAGES: dict[str, dict[str, tuple[str, str]]] = {
    "en": {
        "game_not_found": ("Game not found", "There is no game {game_id}; games expire when "
                                             "idle"),
        "missing_token": ("Seat token required", "Send the seat token as Authorization: Bearer "
                                                 "<token>"),
        "invalid_token": ("Not a seat of this game", "The token holds no seat of this game"),
        "not_your_seat": ("Not your seat", "Your token holds seat {seat}"),
        "invalid_invite": ("Invalid invite", "The invite code opens no seat of this game"),
        "seat_taken": ("Seat taken", "Seat {seat} is already taken"),
        "version_mismatch": ("Game has moved on", "The game is at version {version}; read it "
                                                  "again"),
        "idempotency_key_reused": ("Idempotency-Key reused",
                                   "This Idempotency-Key was sent with a different request"),
        "invalid_idempotency_key": ("Invalid Idempotency-Key",
                                    "Idempotency-Key must be 1 to 255 visible ASCII characters"),
        "after_out_of_range": ("No such event", "The game has {events} events, not {after}"),
        "no_human_seat": ("No human seat", "At least one seat must be human"),
        "creator_not_human": ("Creator seat not human", "Seat {seat} is not a human seat"),
        "unknown_level": ("Unknown computer level", "No computer level {level}; choose "
                                                    "{allowed}"),
        "store_unavailable": ("Service unavailable", "The game store cannot be reached; try "
                                                     "again shortly"),
        "game_busy": ("Game busy", "Too many simultaneous changes to this game; try again"),
        "invalid_options": ("Invalid options", "Option {field}: expected {allowed}"),
        "invalid_action": ("Invalid action", "The action is not well formed"),
        "not_your_turn": ("Not your turn", "It is not your turn"),
        "wrong_phase": ("Wrong phase", "This action is not possible during {phase}"),
        "card_not_in_hand": ("Card not in hand", "{card} is not in your hand"),
        "count_would_exceed_31": ("Count over 31", "{card} would take the count past 31"),
        "wrong_discard_count": ("Wrong number of cards", "Discard {expected} card(s)"),
        "invalid_cut_depth": ("Invalid cut", "The cut depth is out of range"),
        "game_over": ("Game over", "The game is over"),
        "nothing_to_call": ("Nothing to call", "There are no missed points to call"),
        "not_a_claim_phase": ("No count under way", "No hand is being counted"),
        "invalid_claim": ("Invalid claim", "The claim does not hold together"),
    },
    "es": {
        "game_not_found": ("Partida no encontrada", "No hay partida {game_id}; las partidas "
                                                    "caducan sin actividad"),
        "missing_token": ("Falta el token del asiento", "Envíe el token del asiento como "
                                                        "Authorization: Bearer <token>"),
        "invalid_token": ("No es un asiento de esta partida",
                          "El token no corresponde a ningún asiento de esta partida"),
        "not_your_seat": ("No es su asiento", "Su token es del asiento {seat}"),
        "invalid_invite": ("Invitación no válida",
                           "El código de invitación no abre ningún asiento de esta partida"),
        "seat_taken": ("Asiento ocupado", "El asiento {seat} ya está ocupado"),
        "version_mismatch": ("La partida ha avanzado", "La partida está en la versión "
                                                       "{version}; vuelva a leerla"),
        "idempotency_key_reused": ("Idempotency-Key repetida",
                                   "Esta Idempotency-Key se envió con otra petición"),
        "invalid_idempotency_key": ("Idempotency-Key no válida",
                                    "Idempotency-Key debe tener de 1 a 255 caracteres ASCII "
                                    "visibles"),
        "after_out_of_range": ("No existe ese evento", "La partida tiene {events} eventos, no "
                                                       "{after}"),
        "no_human_seat": ("Ningún asiento humano", "Al menos un asiento debe ser humano"),
        "creator_not_human": ("El asiento del creador no es humano",
                              "El asiento {seat} no es humano"),
        "unknown_level": ("Nivel desconocido", "No existe el nivel {level}; elija {allowed}"),
        "store_unavailable": ("Servicio no disponible", "No se puede acceder al almacén de "
                                                        "partidas; inténtelo en breve"),
        "game_busy": ("Partida ocupada", "Demasiados cambios simultáneos en esta partida; "
                                         "inténtelo de nuevo"),
        "invalid_options": ("Opciones no válidas", "Opción {field}: se esperaba {allowed}"),
        "invalid_action": ("Acción no válida", "La acción no está bien formada"),
        "not_your_turn": ("No es su turno", "No es su turno"),
        "wrong_phase": ("Fase equivocada", "Esta acción no es posible durante {phase}"),
        "card_not_in_hand": ("Carta ausente", "{card} no está en su mano"),
        "count_would_exceed_31": ("Cuenta mayor que 31", "{card} haría pasar la cuenta de 31"),
        "wrong_discard_count": ("Número de cartas incorrecto", "Descarte {expected} carta(s)"),
        "invalid_cut_depth": ("Corte no válido", "La profundidad del corte está fuera de rango"),
        "game_over": ("Partida terminada", "La partida ha terminado"),
        "nothing_to_call": ("Nada que reclamar", "No hay puntos olvidados que reclamar"),
        "not_a_claim_phase": ("No se está contando", "No se está contando ninguna mano"),
        "invalid_claim": ("Declaración no válida", "La declaración no es coherente"),
    },
}


def register() -> None:
    """Add these texts to the service's catalogues; texts already there are kept."""
    register_problems(MESSAGES)
