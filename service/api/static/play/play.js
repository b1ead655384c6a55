// The play page: one person against one computer level, through the public API and the
// event stream. Actions go over HTTP; the stream brings the events (the log, the cut for the
// deal, the shows, each step of the pegs) and says when the game has moved on.
import { GameClient, Refused, computerLevels, showSummary } from "./api.js";
import { boardPicture, scoreList } from "./board.js";
import { cardBack, cardButton, cardFigure, cardSymbol } from "./cards.js";
import { follow } from "./stream.js";
import { announcement, countLine, cutLine, renderCuts, renderTable } from "./table.js";
import { language, loadTexts, preferredLanguage, say, setLanguage } from "./texts.js";

const $ = (id) => document.getElementById(id);

let game = null; // the latest game body, as getGame returns it
let etag = null;
let client = null;
let stream = null;
// By side, every score it has had, from the game's bodies and the events. Scores only grow, so
// the front peg is the highest and the back peg the one before, however late an event comes.
let scoresSeen = [];
let dealCut = null; // the last cut for the deal: {cards by seat, dealer or null on a tie}
let handNumber = 0;
let shows = []; // the show_scored events of the latest hand
let log = []; // functions saying each line in the current language
const summaries = new Map(); // "en|5H,5S,6D,4C|JH|false" -> the count in words
let selected = new Set();

// A computer is named by its level in the page's language, whatever language it was created in.
function name(seat) {
  const held = game.seats[seat];
  return held.kind === "computer" ? computerName(held.level) : held.name;
}

// On the table, where room is short, a computer is just "Computer".
function shortName(seat) {
  const held = game.seats[seat];
  return held.kind === "computer" ? say("computer") : held.name;
}

function computerName(level) {
  return `${say("computer")} (${say(`level.${level}`)})`;
}

function fail(error) {
  $("status").textContent = error instanceof Refused ? say("error", { detail: error.message })
                                                     : String(error);
}

// A newer version of the game replaces what is shown; an older one (a late response) is dropped.
function apply(body, tag) {
  if (game && body.version < game.version) return;
  game = body;
  etag = tag || etag;
  for (const event of body.view.history) if (event.scores) noteScores(event.scores);
  noteScores(body.view.scores);
  render();
}

async function refresh() {
  try {
    const { game: body, etag: tag } = await client.read();
    apply(body, tag);
  } catch (error) {
    fail(error);
  }
}

let acting = false; // one action at a time: a second click waits for the first answer

async function act(action) {
  if (acting) return;
  acting = true;
  try {
    const { game: body, etag: tag } = await client.act(action, etag);
    selected = new Set();
    apply(body, tag);
  } catch (error) {
    if (error instanceof Refused && error.status === 412) await refresh();
    else fail(error);
  } finally {
    acting = false;
  }
}

function legal(type) {
  return game.view.legal_actions.find((action) => action.type === type);
}

function render() {
  const view = game.view;
  const me = game.seat;
  const other = 1 - me;
  $("main").dataset.gameId = game.game_id;
  $("main").dataset.version = String(game.version);
  $("main").dataset.phase = view.phase;
  $("main").dataset.turn = view.to_act.includes(me) ? "you" : "other";
  $("main").dataset.handNumber = String(view.hand_number);
  $("opponent-title").textContent = say("opponent", { name: name(other) });
  $("opponent").replaceChildren(...Array.from({ length: view.hand_sizes[other] }, cardBack));
  const crib = view.crib_owner === null ? ""
    : view.crib_owner === me ? say("crib_yours") : say("crib_theirs", { name: name(other) });
  $("table-facts").textContent = [countLine(view), crib].filter(Boolean).join(" · ");
  $("cut-line").textContent = cutLine(view, dealCut, name);
  renderCuts($("cuts"), view, dealCut, shortName);
  renderTable($("table"), view, shortName, me);
  $("announce").textContent = announcement(view, name);
  renderHand(view);
  renderActions(view, me);
  renderBoard();
  renderShows();
}

function renderHand(view) {
  const discard = legal("discard");
  const play = legal("play");
  $("hand").replaceChildren(...(view.hand || []).map((card) => {
    const button = cardButton(card, (picked, pressed) => {
      if (play) return act({ type: "play", card: picked });
      if (selected.has(picked)) selected.delete(picked);
      else if (selected.size < discard.count) selected.add(picked);
      pressed.setAttribute("aria-pressed", String(selected.has(picked)));
      renderDiscardButton(discard);
    });
    if (discard) button.setAttribute("aria-pressed", String(selected.has(card)));
    button.disabled = !(discard || (play && play.cards.includes(card)));
    return button;
  }));
}

function renderDiscardButton(discard) {
  const button = $("discard");
  button.hidden = !discard;
  if (!discard) return;
  button.textContent = say("discard", { count: discard.count });
  button.disabled = selected.size !== discard.count;
}

function renderActions(view, me) {
  const cut = legal("cut_for_deal") || legal("cut_starter");
  $("cut").hidden = !cut;
  if (cut) $("cut").textContent = say(cut.type);
  renderDiscardButton(legal("discard"));
  $("again").hidden = view.phase !== "game_over";
  let status;
  if (view.phase === "game_over") {
    status = say("won", { name: name(game.seats.findIndex((_, seat) =>
      view.side_of_seat[seat] === view.winner)), scores: view.scores.join("–") });
  } else if (cut) status = say(`to_${cut.type}`);
  else if (legal("discard")) status = say("to_discard", { count: legal("discard").count });
  else if (legal("play")) status = say("to_play");
  else status = say("waiting", { name: name(1 - me) });
  $("status").textContent = status;
}

function renderBoard() {
  if (!scoresSeen.length) return;
  const sides = scoresSeen.map((seen, side) => {
    const [front, back = 0] = [...seen].sort((a, b) => b - a);
    return { front, back, name: name(side) };
  });
  const target = game.view.options.target;
  $("scores").replaceChildren(...scoreList(sides, target));
  $("board").replaceChildren(boardPicture(sides, target));
}

function noteScores(scores) {
  scores.forEach((score, side) => {
    if (!scoresSeen[side]) scoresSeen[side] = new Set([0]);
    scoresSeen[side].add(score);
  });
}

function renderShows() {
  $("show").replaceChildren(...shows.map((show) => {
    const entry = document.createElement("div");
    entry.className = "show-entry";
    entry.dataset.seat = String(show.seat);
    entry.dataset.hand = show.hand;
    entry.dataset.handNumber = String(show.handNumber);
    const title = document.createElement("p");
    title.textContent = `${say(show.hand === "crib" ? "show_crib" : "show_hand",
                               { name: name(show.seat) })}: ` +
                        say("show_points", { points: show.points });
    const cards = document.createElement("div");
    cards.className = "cards";
    cards.append(...show.cards.map((card) => cardFigure(card)),
                 cardFigure(show.starter, say("starter_caption")));
    const summary = document.createElement("p");
    summary.className = "summary";
    summary.textContent = summaries.get(summaryKey(show)) || "";
    entry.append(title, cards, summary);
    return entry;
  }));
}

function summaryKey(show) {
  return `${language}|${show.cards.join(",")}|${show.starter}|${show.hand === "crib"}`;
}

// The count in words comes from the scoring API, in the page's language.
async function explain(show) {
  const key = summaryKey(show);
  if (summaries.has(key)) return;
  try {
    summaries.set(key, await showSummary(show.cards, show.starter, show.hand === "crib"));
    renderShows();
  } catch (error) {
    fail(error);
  }
}

function logLine(key, params) {
  log.push(() => say(key, { ...params, ...(params.seat === undefined ? {} :
                                           { name: name(params.seat) }) }));
}

function record(event) {
  if (event.scores && scoresSeen.length) {
    noteScores(event.scores);
    renderBoard();
  }
  switch (event.type) {
    case "dealt":
      handNumber = event.hand_number;
      logLine("dealt", { number: event.hand_number, seat: event.dealer });
      break;
    case "discarded": logLine("discarded", { seat: event.seat, count: event.count }); break;
    case "dealer_cut":
      logLine("deal_cut", { seat: event.seat, card: cardSymbol(event.card) });
      break;
    case "cut_result":
      dealCut = { cards: event.cards, dealer: event.dealer };
      if (event.dealer === null) logLine("cut_tie", {});
      else logLine("deal_cut_won", { seat: event.dealer });
      if (game) render(); // the game's body may have come first, without the cut
      break;
    case "starter_cut":
      logLine("starter_cut", { seat: event.seat, card: cardSymbol(event.starter) });
      break;
    case "heels": logLine("heels", { seat: event.seat }); break;
    case "card_played":
      logLine(event.points ? "card_played_points" : "card_played",
               { seat: event.seat, card: cardSymbol(event.card), count: event.count,
                 points: event.points });
      break;
    case "go": logLine("go", { seat: event.seat }); break;
    case "last_card": logLine("last_card", { seat: event.seat }); break;
    case "count_reset":
      if (event.points) logLine("go_point", { seat: event.seat });
      logLine("count_reset", {});
      break;
    case "show_scored": {
      if (shows.length && shows[0].handNumber !== handNumber) shows = [];
      const show = { ...event, handNumber };
      shows.push(show);
      logLine("shown", { seat: event.seat, points: event.points,
                         cards: `${event.cards.map(cardSymbol).join(" ")} + ${
                           cardSymbol(event.starter)}` });
      explain(show);
      break;
    }
    default: return;
  }
  renderLog();
}

function renderLog() {
  $("log").replaceChildren(...log.map((line) => {
    const item = document.createElement("li");
    item.textContent = line();
    return item;
  }));
  $("log").scrollTop = $("log").scrollHeight;
}

function startStream() {
  stream = follow(client, {
    snapshot(body) { apply(body, null); },
    event: record,
    state(seatState) {
      if (seatState.version > game.version) refresh();
      else { renderBoard(); renderShows(); }
    },
    lost() { $("status").textContent = say("stream_lost"); },
  });
}

async function start(submitted) {
  submitted.preventDefault();
  $("start").disabled = true;
  client = new GameClient();
  try {
    const level = $("level").value;
    const created = await client.create($("name").value.trim() || say("default_name"),
                                        computerName(level), level);
    game = null;
    scoresSeen = [];
    dealCut = null;
    apply(created.game, created.etag);
    $("setup").hidden = true;
    $("game").hidden = false;
    startStream();
  } catch (error) {
    fail(error);
  } finally {
    $("start").disabled = false;
  }
}

function newGame() {
  if (stream) stream.stop();
  game = null;
  log = [];
  shows = [];
  scoresSeen = [];
  dealCut = null;
  $("log").replaceChildren();
  $("board").replaceChildren();
  $("scores").replaceChildren();
  $("table").replaceChildren();
  $("cuts").replaceChildren();
  $("game").hidden = true;
  $("setup").hidden = false;
  $("main").dataset.phase = "setup";
}

function renderLevels(levels) {
  const chosen = $("level").value || "medium";
  $("level").replaceChildren(...levels.map((level) => {
    const option = document.createElement("option");
    option.value = level;
    option.textContent = say(`level.${level}`);
    option.selected = level === chosen;
    return option;
  }));
}

async function main() {
  await loadTexts();
  setLanguage(preferredLanguage());
  $("language").value = language;
  const levels = await computerLevels();
  renderLevels(levels);
  $("language").addEventListener("change", () => {
    setLanguage($("language").value);
    renderLevels(levels);
    if (game) {
      render();
      renderLog();
      shows.forEach(explain);
    }
  });
  $("setup").addEventListener("submit", start);
  $("cut").addEventListener("click", () => act({ type: legal("cut_for_deal") ? "cut_for_deal"
                                                                            : "cut_starter",
                                                 depth: null }));
  $("discard").addEventListener("click", () => act({ type: "discard", cards: [...selected] }));
  $("again").addEventListener("click", newGame);
  $("main").dataset.ready = "true";
}

main();
