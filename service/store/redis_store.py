"""RedisGameStore: games in Redis (standalone or Cluster), each write one Lua compare-and-set.

Keys of one game share the `{game_id}` hash tag, so they live in one Cluster hash slot and
one script may touch them all:
  cribbage:{id}:game     hash: version, data; once the game is finished also archive: its
                         events so far, packed (archive.py, base64)
  cribbage:{id}:events   list of event JSON, event n at index n-1 (after those archived)
  cribbage:{id}:replays  hash: idempotency key -> recorded response
  cribbage:{id}:replay_keys  list: those keys, oldest first (only REPLAYS_KEPT are kept)
  cribbage:{id}:ticket:<hash>  string: the seat of a stream ticket, until it is used or expires
  cribbage:{id}:presence hash: presence lease name -> "<seat>:<until>" ("<seat>:inf": held)
  cribbage:{id}:changed  the pub/sub channel each save (and each presence lease) publishes on
and apart from the games, in a slot of their own:
  cribbage:live:{owner}  sorted set: the owner's live games, by when each claim lapses
  cribbage:player:{key}  string: a player's document (key: the digest of its token)
  cribbage:board:{board}  sorted set: a leaderboard's player ids by rating ("<format>:<season>")
  cribbage:board-names  hash: the name each player id shows on the leaderboards
  cribbage:player:{key}:games  sorted set: its games as "<game id>:<seat>", by when linked
  cribbage:{deadlines}   sorted set: the deadline index, game ids by when something is due
  cribbage:{presence}:holders  sorted set: the server processes holding seats, by last beat
  cribbage:{presence}:seats:<holder>  set: a holder's seats, "<game id>:<seat>" (presence.py)
On a standalone Redis a create or save writes the game's time in the deadline index in its
own script; on a Cluster the index lives in another slot, so the same write follows the save.
Seeks, by pool (one table kind: service.games.seeks), all in the slot of the `{seeks:<pool>}`
tag, so that one script takes a whole table's seeks:
  cribbage:{seeks:<pool>}:open      hash: seek id -> document, of the open seeks
  cribbage:{seeks:<pool>}:seek:<id> string: a seek's document, open or closed, until it expires
  cribbage:{seeks:<pool>}:pairings  hash: game id -> pairing, of the games not yet created
  cribbage:{seeks:<pool>}:version   counter: moves on with each seek added
  cribbage:{seeks:<pool>}:lead      string: the process pairing the pool now, until it expires
  cribbage:{seeks:<pool>}:changed   the pub/sub channel each seek closed publishes on
  cribbage:{seekpools}              sorted set: pools, by when their newest seek expires
  cribbage:{livegames}              sorted set: games open to spectators, by creation time
The webhook queue, all in the slot of the `{webhooks}` tag:
  cribbage:{webhooks}:queue    stream of entries (field `entry`), consumer group `senders`;
                               an entry is deleted once finished
  cribbage:{webhooks}:retries  sorted set: entries waiting for their retry, by when due (ms)
  cribbage:{webhooks}:log:<owner>:<webhook id>  hash: delivery id -> record
  cribbage:{webhooks}:log:<owner>:<webhook id>:order  list: those ids, the newest first
On a standalone server the save script queues a save's webhook entries itself; on a Cluster a
script may touch one slot only, so they are queued by a second call right after the save.
"""

from __future__ import annotations

import base64
import logging
import math
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import TypedDict, cast

import redis
from redis.backoff import NoBackoff
from redis.cluster import RedisCluster
from redis.commands.core import Script
from redis.exceptions import (
    ClusterDownError,
    ClusterError,
    ConnectionError as RedisConnectionError,
    OutOfMemoryError,
    ReadOnlyError,
    RedisClusterException,
    TimeoutError as RedisTimeoutError,
    TryAgainError,
)
from redis.connection import BlockingConnectionPool, parse_url
from redis.retry import Retry

from . import archive, redis_memory
from .durability import fsync_checked, replicated
from .presence import LAPSED_TAKEN, Lapsed, SeatHolds
from .redis_notifications import RedisSubscriptions, channel
from .waiters import Waiters
from .base import (
    DELIVERIES_KEPT,
    DELIVERY_LOG_TTL,
    FINISHED_REPLAYS_KEPT,
    PLAYER_GAMES_KEPT,
    PRESENCE_KEPT,
    REPLAYS_KEPT,
    GameExists,
    GameNotFound,
    DeliveryLog,
    GameStore,
    QueuedEntry,
    StoredGame,
    StoredPlayer,
    StoreError,
    StoreFull,
    StoreUnavailable,
    VersionConflict,
    finished_ttl,
)

log = logging.getLogger(__name__)

# Short timeouts so a dead Redis turns into a quick 503, never a hung worker.
SOCKET_TIMEOUT = 2.0
CONNECT_TIMEOUT = 1.0
MAX_CONNECTIONS = 64  # per server process, standalone Redis
# How long a request waits its turn for one of those connections. Not a sign of Redis gone (a
# dead Redis fails the connections in use within SOCKET_TIMEOUT, which frees them): a worker
# whose event loop stalls (a full garbage collection, the process off the CPU on a busy
# machine) leaves its waiting requests behind greenlets that hold connections while they wait
# to run. Bounded by SOCKET_TIMEOUT, such a stall turned a burst of requests (a thousand waiters
# connecting) into 503s "No connection available" with Redis healthy (bench/live.py
# --busy-cores 1).
POOL_WAIT = 10.0

# ARGV: ttl, data, due ('' for none: the deadline index is not touched), game id, creation
# time in the live games index ('' for none), how many webhook entries, those entries, events...
# KEYS[6] and KEYS[7], on a standalone Redis: the deadline index and the live games index;
# KEYS[8], with webhook entries: the queue
CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4])
redis.call('HSET', KEYS[1], 'version', 1, 'data', ARGV[2])
local queued = tonumber(ARGV[6])
for i = 7, 6 + queued do redis.call('XADD', KEYS[8], '*', 'entry', ARGV[i]) end
if #ARGV > 6 + queued then redis.call('RPUSH', KEYS[2], unpack(ARGV, 7 + queued)) end
redis.call('EXPIRE', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[2], ARGV[1])
if KEYS[6] then
  if ARGV[3] ~= '' then redis.call('ZADD', KEYS[6], ARGV[3], ARGV[4]) end
  if ARGV[5] ~= '' then redis.call('ZADD', KEYS[7], ARGV[5], ARGV[4]) end
end
return 1
"""

# ARGV: replay key ('' for none), events after (-1 for none)
LOAD = """
local game = redis.call('HMGET', KEYS[1], 'version', 'data')
if not game[1] then return false end
local replay = false
if ARGV[1] ~= '' then replay = redis.call('HGET', KEYS[3], ARGV[1]) end
local events = {}
local archived = false
if ARGV[2] ~= '-1' then
  archived = redis.call('HGET', KEYS[1], 'archive')
  if archived then events = redis.call('LRANGE', KEYS[2], 0, -1)
  else events = redis.call('LRANGE', KEYS[2], ARGV[2], -1) end
end
return {game[1], game[2], replay, events, archived, redis.call('HGETALL', KEYS[6])}
"""

# ARGV: expected version, data, ttl, replay key ('' for none), replay record, replays kept,
# the publish command (PUBLISH, or SPUBLISH on a Cluster), the game's time in the deadline
# index ('' to leave it, '-' to drop it), game id, how many webhook entries, those entries,
# events...
# KEYS[6], on a standalone Redis: the deadline index; KEYS[7], with webhook entries: the queue
SAVE = """
local current = redis.call('HGET', KEYS[1], 'version')
if not current then return -1 end
if current ~= ARGV[1] then return 0 end
local version = tonumber(current) + 1
redis.call('HSET', KEYS[1], 'version', version, 'data', ARGV[2])
local queued = tonumber(ARGV[10])
for i = 11, 10 + queued do redis.call('XADD', KEYS[7], '*', 'entry', ARGV[i]) end
if #ARGV > 10 + queued then redis.call('RPUSH', KEYS[2], unpack(ARGV, 11 + queued)) end
if ARGV[8] == '-' and KEYS[6] then redis.call('ZREM', KEYS[6], ARGV[9])
elseif ARGV[8] ~= '' and KEYS[6] then redis.call('ZADD', KEYS[6], ARGV[8], ARGV[9]) end
if ARGV[4] ~= '' then
  redis.call('HSET', KEYS[3], ARGV[4], ARGV[5])
  if redis.call('RPUSH', KEYS[4], ARGV[4]) > tonumber(ARGV[6]) then
    redis.call('HDEL', KEYS[3], redis.call('LPOP', KEYS[4]))
  end
end
for i = 1, 4 do redis.call('EXPIRE', KEYS[i], ARGV[3]) end
redis.call(ARGV[7], KEYS[5], version)
return version
"""

# A finished game's events replaced by their archive, if the game is still at the version whose
# events were packed; only the newest records kept. ARGV: version, archive, records kept
FINISH = """
if redis.call('HGET', KEYS[1], 'version') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'archive', ARGV[2])
redis.call('DEL', KEYS[2])
while redis.call('LLEN', KEYS[4]) > tonumber(ARGV[3]) do
  redis.call('HDEL', KEYS[3], redis.call('LPOP', KEYS[4]))
end
return 1
"""

# Every event's text replaced, in the archive of a finished game or in the list, keeping the
# game's expiry. ARGV: expected version, the publish command, the events packed (archive.py,
# base64), the events
REWRITE_EVENTS = """
local current = redis.call('HGET', KEYS[1], 'version')
if not current then return -1 end
if current ~= ARGV[1] then return 0 end
local version = tonumber(current) + 1
redis.call('HSET', KEYS[1], 'version', version)
redis.call('DEL', KEYS[2])
if redis.call('HEXISTS', KEYS[1], 'archive') == 1 then
  redis.call('HSET', KEYS[1], 'archive', ARGV[3])
elseif #ARGV > 3 then
  redis.call('RPUSH', KEYS[2], unpack(ARGV, 4))
  local ttl = redis.call('PTTL', KEYS[1])
  if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
end
redis.call(ARGV[2], KEYS[5], version)
return version
"""

# KEYS[1]: an owner's live games. ARGV: game id, limit, ttl
CLAIM = """
local now = tonumber(redis.call('TIME')[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
"""

RELEASE = """
return redis.call('ZREM', KEYS[1], ARGV[1])
"""

# KEYS: the game, its presence leases, its channel, on a standalone Redis the deadline index.
# ARGV: lease, "<seat>:<until>" ("<seat>:inf" while held), leases ended before this are
# dropped ('' for none), ttl, check time ('' for none), game id, the publish command
HOLD_PRESENCE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
if ARGV[3] ~= '' then
  local leases = redis.call('HGETALL', KEYS[2])
  for i = 1, #leases, 2 do
    local ends = tonumber(string.match(leases[i + 1], ':(.*)$'))
    if ends < tonumber(ARGV[3]) then redis.call('HDEL', KEYS[2], leases[i]) end
  end
end
redis.call('EXPIRE', KEYS[2], ARGV[4])
if ARGV[5] ~= '' and KEYS[4] then redis.call('ZADD', KEYS[4], 'LT', ARGV[5], ARGV[6]) end
redis.call(ARGV[7], KEYS[3], 'presence')
return 1
"""

# KEYS: the holder's seats, the holders. ARGV: "<game id>:<seat>", holder, now. Returns 1 if
# the holder was among the holders, else 0 (it is now, beaten at `now`).
ENROLL = """
redis.call('SADD', KEYS[1], ARGV[1])
if redis.call('ZSCORE', KEYS[2], ARGV[2]) then return 1 end
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[2])
return 0
"""

# KEYS: the holders. ARGV: holder, now, lapsed before, how many lapsed to take at most, the
# prefix of a holder's seats key. Returns {1 if the holder was known else 0, {{lapsed holder,
# its last beat, its seats}, ...}}; each lapsed holder is taken once: dropped with its seats.
BEAT = """
local known = redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1]) == 0
local taken = {}
for _, holder in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[3],
                                   'LIMIT', 0, ARGV[4])) do
  local seats = ARGV[5] .. holder
  taken[#taken + 1] = {holder, redis.call('ZSCORE', KEYS[1], holder),
                       redis.call('SMEMBERS', seats)}
  redis.call('ZREM', KEYS[1], holder)
  redis.call('DEL', seats)
end
return {known and 1 or 0, taken}
"""

# KEYS[1]: the deadline index. ARGV: now, limit, now + lease
CLAIM_DUE = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
for _, game_id in ipairs(due) do redis.call('ZADD', KEYS[1], 'XX', ARGV[3], game_id) end
return due
"""

# KEYS[1]: the deadline index. ARGV: game id, the time its claim set, its next time ('' drops
# the entry); nothing is done if a save has changed the entry since the claim
RELEASE_DUE = """
local held = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not held or tonumber(held) ~= tonumber(ARGV[2]) then return 0 end
if ARGV[3] == '' then redis.call('ZREM', KEYS[1], ARGV[1])
else redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1]) end
return 1
"""

# KEYS[1]: the deadline index. ARGV: game id, a time that replaces its time if earlier
SCHEDULE_EARLIER = """
return redis.call('ZADD', KEYS[1], 'LT', ARGV[2], ARGV[1])
"""

# KEYS[1]: the deadline index. ARGV: game id, its time ('' drops the entry)
SCHEDULE = """
if ARGV[2] == '' then return redis.call('ZREM', KEYS[1], ARGV[1]) end
return redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
"""

# KEYS: a player's document and games. ARGV: data, ttl
PLAYER_CREATE = """
redis.call('DEL', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
return 1
"""

# ARGV: ttl. Reading a player starts its expiry again.
PLAYER_LOAD = """
local data = redis.call('GET', KEYS[1])
if not data then return false end
for i = 1, 2 do redis.call('EXPIRE', KEYS[i], ARGV[1]) end
return {data, redis.call('ZREVRANGE', KEYS[2], 0, -1)}
"""

# ARGV: "<game id>:<seat>", ttl, games kept
PLAYER_LINK = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local now = redis.call('TIME')
redis.call('ZADD', KEYS[2], tonumber(now[1]) * 1000000 + tonumber(now[2]), ARGV[1])
redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -(tonumber(ARGV[3]) + 1))
for i = 1, 2 do redis.call('EXPIRE', KEYS[i], ARGV[2]) end
return 1
"""

# ARGV: the members to drop
PLAYER_UNLINK = """
return redis.call('ZREM', KEYS[2], unpack(ARGV))
"""

# ARGV: seat, ttl
ADD_TICKET = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('SET', KEYS[5], ARGV[1], 'EX', ARGV[2])
return 1
"""

TAKE_TICKET = """
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
return redis.call('GETDEL', KEYS[5])
"""

# ARGV: the document as loaded, the new one, ttl. Only an unchanged player is replaced.
PLAYER_SAVE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
redis.call('EXPIRE', KEYS[2], ARGV[3])
return 1
"""

# KEYS: the pool's open seeks. Their documents in one reply, a line each: parsing a thousand
# replies cost the web worker 1.7 ms of CPU a pairing round (redis-py without hiredis), one
# long one a tenth of that.
OPEN_SEEKS = """
return table.concat(redis.call('HVALS', KEYS[1]), '\\n')
"""

# KEYS: the pool's open seeks, version, the seek's document. ARGV: seek id, document, ttl
SEEK_ADD = """
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('SET', KEYS[3], ARGV[2], 'EX', ARGV[3])
redis.call('INCR', KEYS[2])
for i = 1, 2 do redis.call('EXPIRE', KEYS[i], ARGV[3]) end
return 1
"""

# KEYS: the pool's open seeks, pairings, channel, then each seek's document. ARGV: ttl, the
# publish command, game id ('' for no pairing), pairing, then (seek id, document) pairs.
# All or nothing: every seek must still be open.
SEEKS_TAKE = """
for i = 5, #ARGV, 2 do
  if redis.call('HEXISTS', KEYS[1], ARGV[i]) == 0 then return 0 end
end
for i = 5, #ARGV, 2 do
  redis.call('HDEL', KEYS[1], ARGV[i])
  redis.call('SET', KEYS[4 + (i - 5) / 2], ARGV[i + 1], 'EX', ARGV[1])
end
if ARGV[3] ~= '' then
  redis.call('HSET', KEYS[2], ARGV[3], ARGV[4])
  redis.call('EXPIRE', KEYS[2], ARGV[1])
end
redis.call(ARGV[2], KEYS[3], 'seeks')
return 1
"""

# KEYS: the pool's lead, version. ARGV: holder, milliseconds. Returns the version, or false.
LEAD_TAKE = """
local held = redis.call('GET', KEYS[1])
if held and held ~= ARGV[1] then return false end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return tonumber(redis.call('GET', KEYS[2]) or '0')
"""

# KEYS: the pool's lead, version. ARGV: holder, the version paired. Returns false once given up,
# else the new version (the lead is kept).
LEAD_END = """
local version = tonumber(redis.call('GET', KEYS[2]) or '0')
if version ~= tonumber(ARGV[2]) then return version end
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return false
"""

# KEYS: the queue. ARGV: entries
ENQUEUE = """
for i = 1, #ARGV do redis.call('XADD', KEYS[1], '*', 'entry', ARGV[i]) end
return #ARGV
"""

# KEYS: queue, retries. ARGV: now (ms), consumer, count, idle (ms). Returns id, entry, id, ...
TAKE = """
pcall(redis.call, 'XGROUP', 'CREATE', KEYS[1], 'senders', '0', 'MKSTREAM')
for _, text in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1], 'LIMIT', 0, 100)) do
  redis.call('XADD', KEYS[1], '*', 'entry', text)
  redis.call('ZREM', KEYS[2], text)
end
local taken = {}
local function add(entries)
  for _, entry in ipairs(entries) do
    if entry[2] then
      taken[#taken + 1] = entry[1]
      taken[#taken + 1] = entry[2][2]
    end
  end
end
add(redis.call('XAUTOCLAIM', KEYS[1], 'senders', ARGV[2], ARGV[4], '0', 'COUNT', ARGV[3])[2])
local room = tonumber(ARGV[3]) - #taken / 2
if room > 0 then
  local fresh = redis.call('XREADGROUP', 'GROUP', 'senders', ARGV[2], 'COUNT', room,
                           'STREAMS', KEYS[1], '>')
  if fresh then add(fresh[1][2]) end
end
return taken
"""

# KEYS: queue, retries, log, log order. ARGV: entry id, retry entry ('' for none), when it is
# due (ms), delivery id ('' for no log), its record, records kept, log ttl, follow-ups...
FINISH_ENTRY = """
if redis.call('XACK', KEYS[1], 'senders', ARGV[1]) == 0 then return 0 end
redis.call('XDEL', KEYS[1], ARGV[1])
if ARGV[2] ~= '' then redis.call('ZADD', KEYS[2], ARGV[3], ARGV[2]) end
if ARGV[4] ~= '' then
  if redis.call('HSET', KEYS[3], ARGV[4], ARGV[5]) == 1 then
    if redis.call('LPUSH', KEYS[4], ARGV[4]) > tonumber(ARGV[6]) then
      redis.call('HDEL', KEYS[3], redis.call('RPOP', KEYS[4]))
    end
  end
  for i = 3, 4 do redis.call('EXPIRE', KEYS[i], ARGV[7]) end
end
for i = 8, #ARGV do redis.call('XADD', KEYS[1], '*', 'entry', ARGV[i]) end
return 1
"""

# KEYS: queue, retries, then each webhook's log and log order. ARGV: the webhooks' log keys
DROP_DELIVERIES = """
local dropped = {}
for i = 1, #ARGV do dropped[ARGV[i]] = true end
local function named(text)
  local ok, entry = pcall(cjson.decode, text)
  return ok and type(entry.owner) == 'string' and type(entry.webhook_id) == 'string'
    and dropped[entry.owner .. ':' .. entry.webhook_id]
end
for _, text in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
  if named(text) then redis.call('ZREM', KEYS[2], text) end
end
if redis.call('EXISTS', KEYS[1]) == 1 then
  for _, item in ipairs(redis.call('XRANGE', KEYS[1], '-', '+')) do
    if named(item[2][2]) then
      pcall(redis.call, 'XACK', KEYS[1], 'senders', item[1])
      redis.call('XDEL', KEYS[1], item[1])
    end
  end
end
for i = 3, #KEYS do redis.call('DEL', KEYS[i]) end
return 1
"""

DELIVERY_LOG = """
local ids = redis.call('LRANGE', KEYS[2], 0, -1)
if #ids == 0 then return {} end
return redis.call('HMGET', KEYS[1], unpack(ids))
"""

# Taken entries stay in the stream until finished: XLEN counts them.
QUEUE_DEPTH = """
return redis.call('XLEN', KEYS[1]) + redis.call('ZCARD', KEYS[2])
"""

# The replica mode runs this before returning a replayed record: a write (the expiry every write
# refreshes) makes WAIT cover whatever the record was read from.
CONFIRM = """
for i = 1, 4 do redis.call('EXPIRE', KEYS[i], ARGV[1]) end
return 1
"""

# Each script runs under a `#!lua` shebang: while Redis is over `maxmemory` it then refuses a
# script that may write before it starts (OOM, StoreFull). Without one, Redis refuses only a
# script whose first write may grow memory; CREATE's first write is a DEL, which it allows, and
# the writes after it then went past the cap. LOAD only reads, so it still runs when Redis is
# full; TAKE_TICKET and RELEASE only delete, and may too. FINISH shrinks a game, but its HSET
# may grow memory first: refused, it leaves the game unpacked.
SCRIPT_FLAGS = {LOAD: "no-writes", TAKE_TICKET: "allow-oom", RELEASE: "allow-oom",
                PLAYER_LOAD: "allow-oom", PLAYER_UNLINK: "allow-oom", CLAIM_DUE: "allow-oom",
                RELEASE_DUE: "allow-oom", DELIVERY_LOG: "no-writes", QUEUE_DEPTH: "no-writes",
                OPEN_SEEKS: "no-writes"}
DEADLINES = "cribbage:{deadlines}"
SEEK_POOLS = "cribbage:{seekpools}"
LIVE_GAMES = "cribbage:{livegames}"
HOLDERS = "cribbage:{presence}:holders"
HOLDER_SEATS = "cribbage:{presence}:seats:"
# A watched game's copy (load(watched=True)) is checked against the game's version this often,
# should a notification have been lost unnoticed (a connection lost is noticed, and every waiter
# reads again): the safety re-read, one HGET. Every minute it was one command per idle waiter
# and minute, all an idle waiter costs (bench/live.py: 0.98); every two, half that. The
# sweeper's round checks every copy due in one pipeline; a request checks its copy itself only
# if that has not happened for twice as long (no sweeper running).
COPY_CHECKED_EVERY = 120.0
# Copies one round checks at most: the copies read together (a thousand waiters connecting) are
# due together, and one pipeline of them all held the event loop long enough to delay the
# deliveries under way (bench/live.py: delivery p99 58 ms instead of 10). With a round a
# second, 50 a round keep up with 6,000 copies per process.
COPIES_CHECKED_AT_ONCE = 50


def with_shebang(script: str) -> str:
    flags = SCRIPT_FLAGS.get(script)
    return (f"#!lua flags={flags}\n" if flags else "#!lua\n") + script


# Errors that mean "Redis is not there right now" (down, loading, failing over), as opposed
# to a bug in this code, which should surface as one.
UNAVAILABLE = (
    RedisConnectionError,
    RedisTimeoutError,
    RedisClusterException,
    ClusterError,
    ClusterDownError,
    TryAgainError,
    ReadOnlyError,
    OSError,
)
# During a Cluster failover, redis-py's RedisCluster re-reads the slot map and disconnects the
# failed node's pool while other threads are still reading from its connections; they then see
# a closed socket as ValueError ("I/O operation on closed file") or AttributeError (the socket
# already set to None). In cluster mode those mean the same as UNAVAILABLE.
TORN_BY_FAILOVER = (ValueError, AttributeError)


@dataclass
class _Read:
    """A game as LOAD read it: its leases as (name, seat, until); `events_after` as asked.
    Kept as a watched game's copy, `checked_at` says when it was last known current."""

    game_id: str
    version: int
    data: str
    replay: str | None
    events: tuple[str, ...]
    events_after: int | None
    leases: tuple[tuple[str, int, float], ...]
    checked_at: float = field(default_factory=time.monotonic)

    def serves(self, events_after: int | None) -> bool:
        """It holds the events after `events_after` (none asked: any copy does)."""
        return events_after is None or (self.events_after is not None
                                        and self.events_after <= events_after)

    def after(self, events_after: int | None) -> _Read:
        """The copy as read with `events_after`, which it serves."""
        if events_after is None:
            return replace(self, events=())
        if self.events_after is None:
            raise ValueError("a copy read with no events serves no events_after")
        return replace(self, events=self.events[events_after - self.events_after:])


class _PubSubOptions(TypedDict):
    decode_responses: bool
    socket_timeout: float
    socket_connect_timeout: float
    health_check_interval: int


def _lease(name: str, held: str) -> tuple[str, int, float]:
    seat, _, until = held.partition(":")
    return name, int(seat), float(until)  # "inf" while held


def live_games_key(owner: str) -> str:
    return "cribbage:live:{" + owner + "}"


BOARD_NAMES = "cribbage:board-names"


def board_key(board: str) -> str:
    return f"cribbage:board:{{{board}}}"


def player_keys(player_key: str) -> list[str]:
    """A player's document and games: one hash tag, one Cluster slot."""
    tag = "{" + player_key + "}"
    return [f"cribbage:player:{tag}", f"cribbage:player:{tag}:games"]


def presence_key(game_id: str) -> str:
    return "cribbage:{" + game_id + "}:presence"


def pool_keys(pool: str) -> list[str]:
    """A seek pool's open seeks, pairings, channel, version and lead: one Cluster slot."""
    tag = "{seeks:" + pool + "}"
    return [f"cribbage:{tag}:open", f"cribbage:{tag}:pairings", channel("seeks:" + pool),
            f"cribbage:{tag}:version", f"cribbage:{tag}:lead"]


def seek_key(pool: str, seek_id: str) -> str:
    return "cribbage:{seeks:" + pool + "}:seek:" + seek_id


def queue_keys(queue: str) -> list[str]:
    """The webhook queue's stream and retries: one hash tag, one Cluster slot."""
    return [f"cribbage:{{{queue}}}:queue", f"cribbage:{{{queue}}}:retries"]


def log_keys(queue: str, log_key: str) -> list[str]:
    """A webhook's delivery log, in the queue's slot (one script finishes an entry and logs)."""
    return [f"cribbage:{{{queue}}}:log:{log_key}", f"cribbage:{{{queue}}}:log:{log_key}:order"]


def game_keys(game_id: str, extra: str | None = None) -> list[str]:
    """The game's keys, then its channel or the `extra` key of the same hash slot."""
    tag = "{" + game_id + "}"
    return [f"cribbage:{tag}:game", f"cribbage:{tag}:events", f"cribbage:{tag}:replays",
            f"cribbage:{tag}:replay_keys", f"cribbage:{tag}:{extra}" if extra else channel(game_id)]


class RedisGameStore(GameStore):
    """GameStore on a Redis server, or on a Redis Cluster with `cluster=True`.

    The client is created on first use, not here, so building an app never connects; if
    Redis is unreachable the call raises StoreUnavailable and the next call tries again.
    `durability` (none, fsync or replica) is what a write must reach before it returns:
    service/store/durability.py. `webhook_queue` names the webhook queue's hash tag (stores
    sharing a Redis with different names have queues of their own).
    """

    def __init__(self, url: str, ttl_seconds: int, cluster: bool = False, *,
                 finished_ttl_seconds: int | None = None, durability: str = "none",
                 webhook_queue: str = "webhooks"):
        if "{" in url:
            raise ValueError("unexpected '{' in Redis URL")
        self.url = url
        self.cluster = cluster
        self.ttl_seconds = ttl_seconds
        self.finished_ttl_seconds = finished_ttl(ttl_seconds, finished_ttl_seconds)
        self.durability = durability
        self._queue_keys = queue_keys(webhook_queue)
        self._webhook_queue = webhook_queue
        self._client: redis.Redis | RedisCluster | None = None
        self._lock = threading.Lock()
        self._scripts: dict[str, Script] = {}
        self._publish = "SPUBLISH" if cluster else "PUBLISH"
        self._subscriptions = RedisSubscriptions(lambda: self._waiters, self._node_of,
                                                 self._node_client, sharded=cluster)
        self._waiters: Waiters[_Read] = Waiters(self._subscriptions)
        self._seats: SeatHolds = SeatHolds(self.hold_presence, self._enroll, self._unenroll,
                                           self._beat)

    def create(self, game_id: str, data: str, events: Sequence[str] = (),
               due: float | None = None, outbox: Sequence[str] = (),
               keep_seconds: int = 0, listed: float | None = None) -> None:
        index = "" if due is None else repr(due)
        queued_with_create = () if self.cluster else outbox
        keys = self._game_keys_and_index(game_id)
        if not self.cluster:
            keys.append(LIVE_GAMES)
        elif listed is not None:
            self._index_live(game_id, listed)
        if queued_with_create:
            keys.append(self._queue_keys[0])
        ttl = max(self.ttl_seconds, keep_seconds)
        created = self._run(CREATE, game_id, [ttl, data, index, game_id,
                                              "" if listed is None else repr(listed),
                                              len(queued_with_create), *queued_with_create,
                                              *events], keys=keys)
        if not created:
            raise GameExists(game_id)
        if self.cluster and due is not None:
            self._apart_from_save(game_id, lambda: self._schedule(game_id, due))
        if self.cluster and outbox:
            # lost if this process dies between the two calls
            self._apart_from_save(game_id, lambda: self._enqueue(outbox))

    def load(self, game_id: str, idempotency_key: str | None = None,
             events_after: int | None = None, watched: bool = False) -> StoredGame:
        if watched and idempotency_key is None:
            read = self._watched(game_id, events_after)
        else:
            read = self._read(game_id, idempotency_key, events_after)
        return StoredGame(read.version, read.data, read.replay, read.events,
                          self._seats.overlay(game_id, read.leases))

    def _read(self, game_id: str, idempotency_key: str | None,
              events_after: int | None) -> _Read:
        after = -1 if events_after is None else max(events_after, 0)
        found = self._run(LOAD, game_id, [idempotency_key or "", after],
                          keys=[*game_keys(game_id), presence_key(game_id)])
        if found is None:
            raise GameNotFound(game_id)
        version, data, replay, events, archived, leases = found
        if archived is not None:
            events = (archive.unpack(base64.b64decode(archived)) + events)[after:]
        if replay is not None and self.durability == "replica":
            self._run(CONFIRM, game_id, [self.ttl_seconds])
        return _Read(game_id, int(version), data, replay, tuple(events), events_after,
                     tuple(_lease(name, held) for name, held in zip(leases[::2], leases[1::2])))

    def _watched(self, game_id: str, events_after: int | None) -> _Read:
        """The game from this process's copy if the copy still holds (Waiters.copy_of), its
        version checked (_check_copies); else read, and kept."""
        kept = self._waiters.copy_of(game_id)
        if kept is None:
            return self._read(game_id, None, events_after)
        changes, copy = kept
        if copy is not None and copy.serves(events_after) and (
                time.monotonic() - copy.checked_at < 2 * COPY_CHECKED_EVERY
                or self._unchanged(copy)):
            return copy.after(events_after)
        read = self._read(game_id, None, events_after)
        self._waiters.keep_copy(game_id, changes, read)
        return read

    def _unchanged(self, copy: _Read) -> bool:
        """The copy's game is still at its version (one HGET): checked now."""
        with self._errors_mapped():
            version = self._connect().hget(game_keys(copy.game_id)[0], "version")
        if version is None or int(version) != copy.version:
            return False
        copy.checked_at = time.monotonic()
        return True

    def save(
        self,
        game_id: str,
        expected_version: int,
        data: str,
        events: Sequence[str] = (),
        idempotency: tuple[str, str] | None = None,
        finished: bool = False,
        reschedule: bool = False,
        due: float | None = None,
        outbox: Sequence[str] = (),
        keep_seconds: int = 0,
    ) -> int:
        key, record = idempotency or ("", "")
        ttl = self.finished_ttl_seconds if finished else max(self.ttl_seconds, keep_seconds)
        index = "" if not reschedule else "-" if due is None else repr(due)
        queued_with_save = () if self.cluster else outbox
        args = [expected_version, data, ttl, key, record, REPLAYS_KEPT, self._publish, index,
                game_id, len(queued_with_save), *queued_with_save, *events]
        keys = self._game_keys_and_index(game_id)
        if queued_with_save:
            keys.append(self._queue_keys[0])
        self._waiters.forget(game_id)  # this process's copy: read again once this is notified
        version = self._run(SAVE, game_id, args, keys=keys)
        if version == -1:
            raise GameNotFound(game_id)
        if version == 0:
            raise VersionConflict(game_id)
        if self.cluster and reschedule:
            self._apart_from_save(game_id, lambda: self._schedule(game_id, due))
        if self.cluster and outbox:
            # lost if this process dies between the two calls
            self._apart_from_save(game_id, lambda: self._enqueue(outbox))
        if finished:
            self._archive(game_id, version)
        return version

    def rewrite_events(self, game_id: str, expected_version: int, events: Sequence[str]) -> int:
        packed = base64.b64encode(archive.pack(events)).decode()
        self._waiters.forget(game_id)
        version = self._run(REWRITE_EVENTS, game_id,
                            [expected_version, self._publish, packed, *events])
        if version == -1:
            raise GameNotFound(game_id)
        if version == 0:
            raise VersionConflict(game_id)
        return int(version)

    def _archive(self, game_id: str, version: int) -> None:
        """Pack a finished game's events, in a step of its own after the save: the save is
        acknowledged whatever becomes of this, and a later save packs what is still a list."""
        try:
            events = self.load(game_id, events_after=0)
            if events.version == version:
                packed = base64.b64encode(archive.pack(events.events)).decode()
                self._run(FINISH, game_id, [version, packed, FINISHED_REPLAYS_KEPT])
        except (StoreUnavailable, GameNotFound) as error:
            log.warning("finished game %s left unpacked: %s", game_id, error)

    def hold_presence(self, game_id: str, lease: str, seat: int, until: float,
                      check_at: float | None = None) -> None:
        keys = [game_keys(game_id)[0], presence_key(game_id), channel(game_id)]
        if not self.cluster:
            keys.append(DEADLINES)
        held = self._run(HOLD_PRESENCE, game_id, [
            lease, f"{seat}:{until!r}",
            repr(until - PRESENCE_KEPT) if math.isfinite(until) else "", self.ttl_seconds,
            "" if check_at is None else repr(check_at), game_id, self._publish], keys=keys)
        if not held:
            raise GameNotFound(game_id)
        if self.cluster and check_at is not None:
            self._apart_from_save(game_id, lambda: self._run(
                SCHEDULE_EARLIER, game_id, [game_id, repr(check_at)], keys=[DEADLINES]))

    def keep_presence(self, now: float, grace: float) -> None:
        super().keep_presence(now, grace)
        self._waiters.reap()  # a quiet process's lingering subscriptions too
        self._check_copies()

    def _check_copies(self) -> None:
        """The safety re-read of this process's copies of watched games: the version of each
        game whose copy was last checked COPY_CHECKED_EVERY seconds ago, in one pipeline. A
        copy whose game moved on is dropped and the game's waiters woken; one that cannot be
        checked is dropped."""
        checked = time.monotonic()
        due = self._waiters.copies(checked_before=checked - COPY_CHECKED_EVERY,
                                   limit=COPIES_CHECKED_AT_ONCE)
        if not due:
            return
        try:
            with self._errors_mapped():
                pipeline = self._connect().pipeline(transaction=False)
                for game_id, _ in due:
                    pipeline.hget(game_keys(game_id)[0], "version")
                versions = pipeline.execute()
        except StoreError as error:
            log.warning("copies of %d watched games dropped, not checked: %s", len(due), error)
            versions = [None] * len(due)
        for (game_id, copy), version in zip(due, versions):
            if version is not None and int(version) == copy.version:
                copy.checked_at = checked
            elif version is not None:  # a change never notified: its waiters read again
                self._waiters.notify(game_id)
            else:
                self._waiters.forget(game_id)

    def _enroll(self, holder: str, game_id: str, seat: int, now: float) -> bool:
        return bool(self._run(ENROLL, "", [f"{game_id}:{seat}", holder, repr(now)],
                              keys=[HOLDER_SEATS + holder, HOLDERS]))

    def _unenroll(self, holder: str, game_id: str, seat: int) -> None:
        with self._errors_mapped():
            self._connect().srem(HOLDER_SEATS + holder, f"{game_id}:{seat}")

    def _beat(self, holder: str, now: float, lapsed_before: float
              ) -> tuple[bool, list[Lapsed]]:
        known, taken = self._run(BEAT, "", [holder, repr(now), repr(lapsed_before),
                                            LAPSED_TAKEN, HOLDER_SEATS], keys=[HOLDERS])
        return bool(known), [Lapsed(name, float(last), tuple(seats))
                             for name, last, seats in taken]

    def claim_due(self, now: float, limit: int, lease: float) -> list[tuple[str, float]]:
        until = now + lease
        due = self._run(CLAIM_DUE, "", [repr(now), limit, repr(until)], keys=[DEADLINES])
        return [(game_id, until) for game_id in due]

    def release_due(self, game_id: str, claimed: float, due: float | None) -> None:
        self._run(RELEASE_DUE, game_id, [game_id, repr(claimed), "" if due is None else repr(due)],
                  keys=[DEADLINES])

    @staticmethod
    def _apart_from_save(game_id: str, write: Callable[[], object]) -> None:
        """A Cluster's write to the deadline index or the webhook queue after a game's write:
        those keys live on one shard, which may be down while the game's is up. The game's write
        stands and is acknowledged; a deadline missed here still applies when the game is next
        read, and the next save that moves it writes it again."""
        try:
            write()
        except StoreError as error:
            log.warning("game %s saved, but not its index or queue entry: %s", game_id, error)

    def _schedule(self, game_id: str, due: float | None) -> None:
        """The game's time in the deadline index, written apart from its save (a Cluster)."""
        self._run(SCHEDULE, game_id, [game_id, "" if due is None else repr(due)],
                  keys=[DEADLINES])

    def _game_keys_and_index(self, game_id: str) -> list[str]:
        """A game's keys, and on a standalone Redis the deadline index that its writes set."""
        keys = game_keys(game_id)
        return keys if self.cluster else [*keys, DEADLINES]

    def claim_live_game(self, owner: str, game_id: str, limit: int) -> bool:
        return bool(self._run(CLAIM, game_id, [game_id, limit, self.ttl_seconds],
                              keys=[live_games_key(owner)]))

    def release_live_game(self, owner: str, game_id: str) -> None:
        self._run(RELEASE, game_id, [game_id], keys=[live_games_key(owner)])

    def shared_value(self, name: str, candidate: str) -> str:
        key = "cribbage:shared:" + name
        with self._errors_mapped():
            client = self._connect()
            client.set(key, candidate, nx=True)
            kept = client.get(key)
        # A str: the client decodes. None only if evicted since the SET: nothing to agree with.
        return kept if isinstance(kept, str) else candidate

    def create_player(self, player_key: str, data: str, ttl: int) -> None:
        self._run(PLAYER_CREATE, player_key, [data, ttl], keys=player_keys(player_key))

    def load_player(self, player_key: str, ttl: int) -> StoredPlayer | None:
        found = self._run(PLAYER_LOAD, player_key, [ttl], keys=player_keys(player_key))
        if found is None:
            return None
        data, members = found
        games = tuple((game_id, int(seat))
                      for game_id, seat in (member.rsplit(":", 1) for member in members))
        return StoredPlayer(data, games)

    def link_player_game(self, player_key: str, game_id: str, seat: int, ttl: int) -> bool:
        return bool(self._run(PLAYER_LINK, player_key, [f"{game_id}:{seat}", ttl,
                                                        PLAYER_GAMES_KEPT],
                              keys=player_keys(player_key)))

    def unlink_player_games(self, player_key: str, games: Sequence[tuple[str, int]]) -> None:
        if games:
            self._run(PLAYER_UNLINK, player_key, [f"{game_id}:{seat}" for game_id, seat in games],
                      keys=player_keys(player_key))

    def save_player(self, player_key: str, expected: str, data: str, ttl: int) -> bool:
        return bool(self._run(PLAYER_SAVE, player_key, [expected, data, ttl],
                              keys=player_keys(player_key)))

    def delete_player(self, player_key: str) -> None:
        with self._errors_mapped():  # one slot: the keys share the player's hash tag
            self._connect().delete(*player_keys(player_key))

    # Leaderboards: each board a sorted set of its own (its own slot on a Cluster), the names
    # one hash; a rank writes each apart (a board a moment behind another is harmless).
    def rank(self, boards: Sequence[str], member: str, score: int, name: str) -> None:
        with self._errors_mapped():
            client = self._connect()
            for board in boards:
                client.zadd(board_key(board), {member: score})
            client.hset(BOARD_NAMES, member, name)

    def unrank(self, boards: Sequence[str], member: str) -> None:
        with self._errors_mapped():
            client = self._connect()
            client.hdel(BOARD_NAMES, member)
            for board in boards:
                client.zrem(board_key(board), member)

    def board_page(self, board: str, start: int, count: int) -> list[tuple[str, int, str]]:
        if count <= 0:
            return []
        with self._errors_mapped():
            client = self._connect()
            places = cast(list[tuple[str, float]], client.zrevrange(
                board_key(board), start, start + count - 1, withscores=True))
            if not places:
                return []
            names = cast(list[str | None],
                         client.hmget(BOARD_NAMES, [member for member, _ in places]))
        return [(member, int(score), name) for (member, score), name in zip(places, names)
                if name is not None]

    def board_place(self, board: str, member: str) -> int | None:
        with self._errors_mapped():
            place = cast(int | None, self._connect().zrevrank(board_key(board), member))
        return place
    def add_seek(self, pool: str, seek_id: str, data: str, ttl: int) -> None:
        keys = pool_keys(pool)
        self._run(SEEK_ADD, "", [seek_id, data, ttl],
                  keys=[keys[0], keys[3], seek_key(pool, seek_id)])
        with self._errors_mapped():  # the index of pools: a hint for the sweepers
            self._connect().zadd(SEEK_POOLS, {pool: time.time() + ttl}, gt=True)

    def load_seek(self, pool: str, seek_id: str) -> str | None:
        with self._errors_mapped():
            found = self._connect().get(seek_key(pool, seek_id))
        return found if isinstance(found, str) else None

    def open_seeks(self, pool: str) -> list[str]:
        found = str(self._run(OPEN_SEEKS, "", [], keys=[pool_keys(pool)[0]]))
        return found.split("\n") if found else []   # str: the client decodes

    def take_seeks(self, pool: str, taken: Mapping[str, str], ttl: int,
                   pairing: tuple[str, str] | None = None) -> bool:
        game_id, text = pairing or ("", "")
        pairs = [item for seek_id, data in taken.items() for item in (seek_id, data)]
        keys = pool_keys(pool)[:3] + [seek_key(pool, seek_id) for seek_id in taken]
        return bool(self._run(SEEKS_TAKE, "", [ttl, self._publish, game_id, text, *pairs],
                              keys=keys))

    def pairings(self, pool: str) -> dict[str, str]:
        with self._errors_mapped():
            found = self._connect().hgetall(pool_keys(pool)[1])
        return {str(game_id): str(plan) for game_id, plan in cast(dict, found).items()}

    def end_pairing(self, pool: str, game_id: str) -> None:
        with self._errors_mapped():
            self._connect().hdel(pool_keys(pool)[1], game_id)

    def lead_pairing(self, pool: str, holder: str, seconds: float) -> int | None:
        keys = pool_keys(pool)
        version = self._run(LEAD_TAKE, "", [holder, int(seconds * 1000)],
                            keys=[keys[4], keys[3]])
        return None if version is None else int(version)

    def end_pairing_lead(self, pool: str, holder: str, version: int) -> int | None:
        keys = pool_keys(pool)
        newer = self._run(LEAD_END, "", [holder, version], keys=[keys[4], keys[3]])
        return None if newer is None else int(newer)

    def seek_pools(self) -> list[str]:
        with self._errors_mapped():
            client = self._connect()
            client.zremrangebyscore(SEEK_POOLS, "-inf", time.time())
            found = client.zrange(SEEK_POOLS, 0, -1)
        return [str(pool) for pool in cast(list, found)]

    def _index_live(self, game_id: str, created: float) -> None:
        """A Cluster's entry in the live games index, written before its game (create): a
        crash between the two leaves an entry without a game, which the listing drops, never
        a game without an entry. NX: a create that finds its game made already (a pairing
        tried again) keeps the game's first time. Should the index's shard be down, the game
        is played all the same, unlisted."""
        try:
            with self._errors_mapped():
                self._connect().zadd(LIVE_GAMES, {game_id: created}, nx=True)
        except StoreError as error:
            log.warning("game %s not listed as live: %s", game_id, error)

    def live_games(self, before: float | None, limit: int) -> list[tuple[str, float]]:
        with self._errors_mapped():
            found = self._connect().zrevrangebyscore(
                LIVE_GAMES, "+inf" if before is None else repr(before), "-inf", start=0,
                num=limit, withscores=True)
        return [(str(game_id), float(created)) for game_id, created in cast(list, found)]

    def unindex_live_games(self, game_ids: Sequence[str]) -> None:
        if game_ids:
            with self._errors_mapped():
                self._connect().zrem(LIVE_GAMES, *game_ids)

    def _enqueue(self, entries: Sequence[str]) -> None:
        """Queue webhook entries apart from the game's write (a Cluster's queue is in a slot
        of its own)."""
        if entries:
            self._run(ENQUEUE, "", list(entries), keys=self._queue_keys[:1])

    def take_entries(self, consumer: str, count: int, now: float, idle_seconds: float,
                     block_seconds: float = 0) -> list[QueuedEntry]:
        found = self._run(TAKE, "", [int(now * 1000), consumer, count, int(idle_seconds * 1000)],
                          keys=self._queue_keys)
        if found or block_seconds <= 0:
            return [QueuedEntry(found[i], found[i + 1]) for i in range(0, len(found), 2)]
        # A script may not block: wait for a new entry with a command of its own. Shorter than
        # the socket timeout, or the wait would read as Redis gone.
        block = int(min(block_seconds, SOCKET_TIMEOUT / 2) * 1000)
        with self._errors_mapped():
            streams = self._connect().xreadgroup("senders", consumer, {self._queue_keys[0]: ">"},
                                                 count=count, block=block)
        # RESP2, the client's protocol, answers a list of [stream, [(id, fields), ...]]
        assert isinstance(streams, list), "RESP3's map answered to a RESP2 client"
        return [QueuedEntry(entry_id, fields["entry"])
                for _, entries in streams for entry_id, fields in entries]

    def finish_entry(self, entry_id: str, follow_ups: Sequence[str] = (),
                     retry: tuple[str, float] | None = None,
                     log: DeliveryLog | None = None) -> bool:
        retry_text, due = retry or ("", 0.0)
        delivery_id, record = (log.delivery_id, log.record) if log else ("", "")
        keys = self._queue_keys + log_keys(self._webhook_queue,
                                           log.log_key if log else "none")
        return bool(self._run(FINISH_ENTRY, "", [entry_id, retry_text, int(due * 1000),
                                                 delivery_id, record, DELIVERIES_KEPT,
                                                 DELIVERY_LOG_TTL, *follow_ups], keys=keys))

    def drop_deliveries(self, webhooks: Sequence[str]) -> None:
        if webhooks:
            logs = [key for webhook in webhooks for key in log_keys(self._webhook_queue, webhook)]
            self._run(DROP_DELIVERIES, "", list(webhooks), keys=self._queue_keys + logs)

    def delivery_log(self, log_key: str) -> list[str]:
        found = self._run(DELIVERY_LOG, "", [], keys=log_keys(self._webhook_queue, log_key))
        return [record for record in found if record is not None]

    def queue_depth(self) -> int:
        return int(self._run(QUEUE_DEPTH, "", [], keys=self._queue_keys))

    def watch(self, game_id: str):
        return self._waiters.watch(game_id)

    def add_ticket(self, game_id: str, ticket_hash: str, seat: int, ttl: int) -> None:
        if not self._run(ADD_TICKET, game_id, [seat, ttl], f"ticket:{ticket_hash}"):
            raise GameNotFound(game_id)

    def take_ticket(self, game_id: str, ticket_hash: str) -> int | None:
        seat = self._run(TAKE_TICKET, game_id, [], f"ticket:{ticket_hash}")
        if seat == -1:
            raise GameNotFound(game_id)
        return None if seat is None else int(seat)

    def ping(self) -> None:
        """One `INFO memory` per master rather than a PING: it answers too, and says whether
        Redis is over `maxmemory`."""
        try:
            client = self._connect()
            if isinstance(client, RedisCluster):
                reports = {f" on {node.name}": client.info("memory", target_nodes=node)
                           for node in client.get_primaries()}
            else:  # not named by its URL, which may hold a password
                reports = {"": client.info("memory")}
        except UNAVAILABLE as error:
            raise self._unavailable(error) from error
        for where, memory in reports.items():
            if not redis_memory.has_room(memory):
                raise StoreFull(f"Redis is full{where}: {memory['used_memory_human']} used, "
                                f"maxmemory {memory['maxmemory_human']}")

    def close(self) -> None:
        self._subscriptions.close()
        with self._lock:
            client, self._client = self._client, None
        if client is not None:
            client.close()

    def load_many(self, game_ids: Sequence[str]) -> list[StoredGame | None]:
        """One pipeline of reads: a round trip per node, not per game."""
        with self._errors_mapped():
            pipeline = self._connect().pipeline(transaction=False)
            for game_id in game_ids:
                pipeline.hmget(game_keys(game_id)[0], "version", "data")
            found = pipeline.execute()
        return [None if version is None else StoredGame(int(version), data)
                for version, data in found]

    def _run(self, script: str, game_id: str, args: list, extra_key: str | None = None,
             keys: list[str] | None = None):
        """Run a script on the game's keys, or on `keys` (keys of no game)."""
        with self._errors_mapped():
            client = self._connect()
            return self._execute(client, script, keys or game_keys(game_id, extra_key), args)

    @contextmanager
    def _errors_mapped(self):
        """Redis's errors as the store's: full, unavailable."""
        try:
            yield
        except OutOfMemoryError as error:
            raise StoreFull(f"Redis is full: {error}") from error
        except UNAVAILABLE as error:
            raise self._unavailable(error) from error
        except TORN_BY_FAILOVER as error:
            if not self.cluster:
                raise
            raise self._unavailable(error) from error

    def _unavailable(self, error: Exception) -> StoreUnavailable:
        if self.cluster:
            # The cluster client may hold a stale slot map; the next call builds a new one.
            # The old one is dropped, not closed: other threads may be mid-command on it.
            with self._lock:
                self._client = None
        return StoreUnavailable(f"Redis unavailable: {error}")

    def _connect(self) -> redis.Redis | RedisCluster:
        with self._lock:
            if self._client is None:
                self._client = self._new_client()
            return self._client

    def _node_of(self, channel_name: str) -> str:
        if not self.cluster:
            return ""
        client = self._connect()
        assert isinstance(client, RedisCluster)  # what _new_client makes for a cluster
        return client.get_node_from_key(channel_name).name

    def _node_client(self, node: str) -> redis.Redis:
        """A client for one pub/sub connection: to the URL's server, or to a Cluster node."""
        options = _PubSubOptions(decode_responses=True, socket_timeout=SOCKET_TIMEOUT,
                                 socket_connect_timeout=CONNECT_TIMEOUT, health_check_interval=30)
        if not node:
            return redis.Redis.from_url(self.url, **options)
        host, port = node.rsplit(":", 1)
        return redis.Redis(**{**parse_url(self.url), "host": host, "port": int(port)}, **options)

    def _new_client(self) -> redis.Redis | RedisCluster:
        # One retry (no backoff) heals a pooled connection that went stale when Redis
        # restarted; more would only delay the 503 while Redis is really down.
        options = dict(
            decode_responses=True,
            socket_timeout=SOCKET_TIMEOUT,
            socket_connect_timeout=CONNECT_TIMEOUT,
            retry=Retry(NoBackoff(), 1),
        )
        if self.durability == "fsync":
            options["redis_connect_func"] = fsync_checked(self.cluster)
        if self.cluster:
            return RedisCluster.from_url(self.url, **options)
        # Under gevent every request in flight would open a connection of its own: a herd of
        # clients could go past Redis's maxclients. Past the cap a request waits its turn.
        pool = BlockingConnectionPool.from_url(self.url, max_connections=MAX_CONNECTIONS,
                                               timeout=POOL_WAIT, **options)
        return redis.Redis(connection_pool=pool)

    def _execute(self, client, script: str, keys: list[str], args: list):
        """Run one script; in the replica mode a game write returns once a replica has it."""
        if self.durability == "replica" and script in (CREATE, SAVE, CONFIRM):
            node = (client.get_redis_connection(client.get_node_from_key(keys[0]))
                    if self.cluster else client)
            return replicated(node, lambda pipeline: self._script(client, script)(
                keys=keys, args=args, client=pipeline))
        return self._script(client, script)(keys=keys, args=args, client=client)

    def _script(self, client, script: str) -> Script:
        """The script, registered on first use (it is sent by its SHA, and loaded again
        when a Redis does not know that)."""
        registered = self._scripts.get(script)
        if registered is None:
            registered = self._scripts[script] = client.register_script(with_shebang(script))
        return registered
