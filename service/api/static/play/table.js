// The table: the cuts (for the deal, then the starter), the cards of the count being played, and
// the last card or go announced with its seat's name. Figures already on the table are kept, so
// a card slides in once, when it is played, however often the page draws the table again.
import { captionFigure, cardFigure, cardSymbol } from "./cards.js";
import { say } from "./texts.js";

// The cards of the count being played and of the count that ended last, from the hand's events.
function countsOf(history) {
  let current = [];
  let ended = [];
  for (const event of history) {
    if (event.type === "card_played") current.push({ seat: event.seat, card: event.card });
    else if (event.type === "count_reset") {
      ended = current;
      current = [];
    }
  }
  return { current, ended };
}

// During the play, the count's cards; between a reset and the next card, the count that ended,
// dimmed; once the play is over, its last count, dimmed.
function tableEntries(view, name, me) {
  const { current, ended } = countsOf(view.history);
  const live = view.phase === "play" && current.length > 0;
  const shown = current.length ? current : ended;
  const last = shown[shown.length - 1];
  return shown.map((played) => ({
    card: played.card, seat: played.seat, caption: name(played.seat), ended: !live,
    justPlayed: live && played === last && played.seat !== me }));
}

function lastPlayOrGo(history) {
  return history.filter((event) => event.type === "card_played" || event.type === "go").pop();
}

export function announcement(view, name) {
  const last = lastPlayOrGo(view.history);
  if (!last) return "";
  return last.type === "go" ? say("go", { name: name(last.seat) })
                            : say("plays", { name: name(last.seat), card: cardSymbol(last.card) });
}

// "Count: 0 · The count starts again." between a reset and the next card.
export function countLine(view) {
  const count = say("count", { count: view.count });
  const restarted = view.phase === "play" && !countsOf(view.history).current.length &&
                    view.history.some((event) => event.type === "count_reset");
  return restarted ? `${count} · ${say("count_reset")}` : count;
}

function cutEntries(view, dealCut, name) {
  if (view.phase === "cut_for_deal" && view.cut_for_deal) {
    return view.cut_for_deal.cards.flatMap((card, seat) =>
      card ? [{ card, seat, caption: name(seat) }] : []);
  }
  if (view.starter) {
    return [{ card: view.starter, seat: view.starter_cutter, caption: say("starter_caption") }];
  }
  if (view.hand_number === 1 && dealCut) {
    return dealCut.cards.flatMap((card, seat) => card ? [{ card, seat, caption: name(seat) }]
                                                      : []);
  }
  return [];
}

// The sentence under the cut cards: who cut what, and what came of it.
export function cutLine(view, dealCut, name) {
  if (view.starter) {
    return say("starter", { card: cardSymbol(view.starter), name: name(view.starter_cutter) });
  }
  const cuts = cutEntries(view, dealCut, name).map((entry) =>
    say("deal_cut", { name: name(entry.seat), card: cardSymbol(entry.card) }));
  if (view.phase !== "cut_for_deal" && view.hand_number === 1 && dealCut) {
    cuts.push(dealCut.dealer === null ? say("cut_tie")
                                      : say("deal_cut_won", { name: name(dealCut.dealer) }));
  }
  if (cuts.length) return cuts.join(" ");
  return view.phase === "cut_for_deal" ? "" : say("no_starter");
}

export function renderCuts(container, view, dealCut, name) {
  syncFigures(container, cutEntries(view, dealCut, name));
}

export function renderTable(container, view, name, me) {
  syncFigures(container, tableEntries(view, name, me));
}

// Keeps the figures already shown (their slide-in is not played again), removes the others and
// adds the new ones, in order.
function syncFigures(container, entries) {
  const shown = new Map([...container.children].map((node) => [node.dataset.card, node]));
  const wanted = new Set(entries.map((entry) => entry.card));
  for (const [card, node] of shown) if (!wanted.has(card)) node.remove();
  entries.forEach((entry, index) => {
    const figure = shown.get(entry.card) || cardFigure(entry.card);
    captionFigure(figure, entry.caption);
    figure.dataset.seat = String(entry.seat);
    figure.classList.toggle("ended", Boolean(entry.ended));
    figure.classList.toggle("just-played", Boolean(entry.justPlayed));
    if (container.children[index] !== figure) {
      container.insertBefore(figure, container.children[index] || null);
    }
  });
}
