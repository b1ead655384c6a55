"""The OpenAPI document's `info.description`: the whole API in one page, for the docs pages."""

API_DESCRIPTION = """\
Cribbage over HTTP: score shows and pegging, check claimed counts, replay the play of a hand, \
coach discards and plays, draw a show or a board, and run turn-based games for 2–6 players \
against people or computer levels.

**Start here:** play a game on [`/play`](/play) (the page uses only this API and the event \
stream); read this document in Swagger UI at [`/docs`](/docs) or in ReDoc at \
[`/docs/redoc`](/docs/redoc); the document itself is [`/openapi.json`](/openapi.json).

## Cards
Every notation is accepted: `5h`, `10 d`, `TD`, `5♥`, `king of diamonds`, `rey de diamantes`, \
`k d` (the `CardText` schema's pattern is exactly what is accepted). Responses always use the \
canonical form `5H`, `10D`, `JS`, `AC`.

## Scoring (stateless)
- `POST /v1/show/score`: a hand or crib with the starter: every fifteen, pair, run, flush and \
nobs, and the count as a player says it ("fifteen two, fifteen four and a pair makes six").
- `POST /v1/show/verify`: a claimed count (a number, or the combinations claimed) against the \
true one: points missed (the muggins amount) and overclaimed, with an explanation.
- `POST /v1/pegging/score`: the points of the last card laid on a pile.
- `POST /v1/pegging/replay`: a whole play checked against the rules (turns, goes, the last \
card), with the seats given or inferred.
- `POST /v1/show/batch` and `POST /v1/pegging/batch`: up to 10,000 shows or piles in one \
request, each refused item named by index (or the whole batch refused, with `all_or_nothing`).

## Coaching
- `POST /v1/analysis/discard`: every discard of a dealt hand with its expected hand and crib \
points.
- `POST /v1/analysis/play`: each card you may play with its expected points over the rest of \
the play (and, near the end, the chance to win).
- `POST /v1/analysis/position`: each side's chance to win and expected game points from the \
scores, the dealer and the target, for 2-6 players and teams.

## Pictures
`GET /v1/show/image.svg` (a show: the cards, the starter, the points and the count in words) and \
`GET /v1/board/image.svg` (a pegging board of 2 or 3 sides with both pegs of each) answer SVG \
for an app, a chat or a page (`<img src=...>`).

## Games
1. `POST /v1/games` creates a game: one entry per seat, human or computer (with a level). The \
creator gets a seat token (shown only then) and an invite code for every other human seat; \
`POST /v1/games/{game_id}/join` takes a seat with its code. Send the token as \
`Authorization: Bearer <token>`; `PATCH /v1/games/{game_id}/seats/{seat}` renames your seat.
2. `GET /v1/games/{game_id}` reads the game as your seat: the public state, your own cards, \
your legal actions. Without a token you read it as a spectator. Other hands, the crib before \
the show and the undealt deck are never shown.
3. `POST /v1/games/{game_id}/actions` acts as your seat: cut, discard, play, claim, call \
muggins, resign, abort (until the first card is played), go on to the next game of a match. \
A go needs no request. Computer seats act before the response returns when their moves come \
within 5 s (the searches run in compute processes; past that bound the response shows the game \
as saved and their moves follow as events). Send `If-Match` with the ETag you acted on (412 if the game has moved on) and an `Idempotency-Key` to make a retry \
safe.
4. Follow the game: `GET /v1/games/{game_id}/events?after=N&wait=25` (a long poll), or \
`GET /v1/games/{game_id}/stream` (Server-Sent Events: a snapshot, then every event, the seat's \
state after each batch, heartbeats, `end` when the game is over). A browser's EventSource cannot \
send a header: it asks `POST /v1/games/{game_id}/stream-tickets` for a one-time ticket and \
opens the stream with `?ticket=`.

Every ending (won, resigned, aborted, timed out, abandoned after 3 days without a human move) \
ends the events with one `game_over` event: its reason, the winner, the scores and game points.

**Turn timers** (`options.turn_time_limit`, 10 s to 14 days per decision): views and states give \
`turn_deadline` (RFC 3339) and `turn_ms_left` (by the server's clock); when a seat runs out of \
time a computer moves for it (`turn_timeout` event) or, with `on_timeout: forfeit`, its side \
loses. Deadlines fire with no client connected: every server process sweeps the due ones.

**Presence:** each seat says whether it is `connected` (an open stream or long poll, or an \
action in the last 5 s); `presence` events tell the table when a seat goes (after a 30 s \
grace) and comes back.

**The coach:** `GET /v1/games/{game_id}/analysis` judges each discard and each card played \
by choice against what `hard` does in the same position: the expected points and (two players) \
the chance to win lost, with a summary per seat and side. Your own decisions show once their \
hand's show is over, every seat's once the game is over. Options: `hints` puts the analysis of \
the decision you face in your view (`view.hint`); `start_scores` and `first_dealer` start from a \
preset position; `deck_seed` deals the same cards in every game created with it (duplicate \
play), still committed to at creation and revealed at the end; every seat sees \
`options.preset_deck` true in such a game, since its creator may know every hand.

After a game, `POST /v1/games/{game_id}/rematch` offers (or accepts) a rematch with the same \
seats and options; `DELETE /v1/games/{game_id}/rematch` declines it.

**Players** (optional): `POST /v1/players` issues a player token; creating or joining a game \
with it links the seat, the token then opens that seat too, and `GET /v1/players/me/games` \
lists the player's live and recent games, a page at a time. `GET /v1/players/me` reads the \
profile (ratings and statistics per format), `PATCH /v1/players/me` renames it, hides it from \
leaderboards or rotates its token, and `DELETE /v1/players/me` erases it. A game created with \
`"rated": true` between players moves their ratings; `GET /v1/leaderboards/{format}` lists \
the best of a format per month and of all time.

**Finding a game** (with a player token): `POST /v1/seeks` asks for a game of some kind (players \
or teams, options, rated or casual, a rating range, computers after a wait); seeks of the same \
kind are paired into a new game, each seek once, and `GET /v1/seeks/{seek_id}` (with `wait` a \
long poll) shows its owner the game, the seat and the token to play it with. `GET /v1/seeks` \
lists the open seeks, `DELETE /v1/seeks/{seek_id}` cancels one, and `GET /v1/games?status=live` \
lists the games open to spectators.

**Webhooks** (optional): `POST /v1/games/{game_id}/webhooks` (with a seat token) registers an \
HTTPS URL that is told when it is a seat's turn, when the game ends and when a seat comes or \
goes; `POST /v1/players/me/webhooks` (with a player token) one told of every game of the \
player. Each POST is signed the Standard Webhooks way (`webhook-id`, `webhook-timestamp`, \
`webhook-signature`), carries no card, and is retried with backoff until it gets a 2xx. \
`GET /v1/games/{game_id}/webhooks` and `GET /v1/players/me/webhooks` list yours, \
`DELETE /v1/games/{game_id}/webhooks/{webhook_id}` and \
`DELETE /v1/players/me/webhooks/{webhook_id}` delete one, and \
`GET /v1/games/{game_id}/webhooks/{webhook_id}/deliveries` and \
`GET /v1/players/me/webhooks/{webhook_id}/deliveries` show its recent deliveries.

**Push to devices** (optional, no server of your own): subscribe a browser or app with the \
key of `GET /v1/push/key`, then register the subscription for a seat with \
`POST /v1/games/{game_id}/push-subscriptions` or for a player with \
`POST /v1/players/me/push-subscriptions`. The same notifications are pushed (Web Push, \
encrypted for the device, VAPID-signed, one per game topic). \
`GET /v1/games/{game_id}/push-subscriptions` and `GET /v1/players/me/push-subscriptions` \
list yours; `DELETE /v1/games/{game_id}/push-subscriptions/{subscription_id}` and \
`DELETE /v1/players/me/push-subscriptions/{subscription_id}` delete one, and \
`GET /v1/games/{game_id}/push-subscriptions/{subscription_id}/deliveries` and \
`GET /v1/players/me/push-subscriptions/{subscription_id}/deliveries` show its recent \
deliveries. A subscription its push service reports gone is deleted.

Every shuffle is verifiable: the hash of a hand's seed is published when it is dealt and the \
seed is revealed when the hand ends. An idle game expires after a set time.

## Languages
Text meant for people (counts in words, explanations, problem titles and details) follows \
`Accept-Language`: English (the default) or Spanish. Such a response says which in \
`Content-Language`.

## Errors
Every error is RFC 9457 `application/problem+json` with a stable `code`; `title` and `detail` \
are in the request's language and `field` names the part of the request at fault \
(`hand[2]`). 400: not JSON, or a request that cannot be read (a malformed chunked body); 401, \
403: a missing or wrong seat token; 404: no such game or path; \
405: method not allowed; 408: a body that does not arrive in time; 409: the rules refuse the \
action now; 412: stale `If-Match`; 413: a \
body over 64 KiB; 415: not `application/json`; 422: a field, a card or a sequence that is not \
valid; 429: too many requests, or the client's CPU budget for analyses spent (`Retry-After`, \
`RateLimit`); 503: the game store is unreachable or full, or the compute tier's queue is full \
(`Retry-After`). A 500 is a bug.

The analyses (`/v1/analysis/*`, a game's analysis) are charged by the CPU they cost: each client \
(its bearer token, else its address) may spend 10,000 ms of compute CPU a minute, shown as the \
`cpu` policy of the `RateLimit` headers.

## Operations
`GET /livez` (the process answers), `GET /readyz` (its game store answers), `GET /v1/ping` (a \
trivial JSON endpoint); Prometheus metrics at `/metrics`.
"""
