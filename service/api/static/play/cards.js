// Cards drawn as SVG: faces, backs, and the buttons and figures that hold them.
import { say } from "./texts.js";

const SVG = "http://www.w3.org/2000/svg";
const SYMBOLS = { H: "♥", D: "♦", C: "♣", S: "♠" };
const SUITS_IN_WORDS = "HDCS"; // the order of the catalogue's "suits"
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const WIDTH = 64;
const HEIGHT = 90;

function element(name, attributes = {}, text = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text !== null) node.textContent = text;
  return node;
}

function picture(children) {
  const svg = element("svg", { width: WIDTH, height: HEIGHT, viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
                               "aria-hidden": "true", focusable: "false" });
  svg.append(...children);
  return svg;
}

// "5H" as words: "five of hearts", "cinco de corazones".
export function cardWords(card) {
  const rank = card.slice(0, -1);
  const suit = card.slice(-1);
  return say("card_label", { rank: say("ranks").split(",")[RANKS.indexOf(rank)],
                             suit: say("suits").split(",")[SUITS_IN_WORDS.indexOf(suit)] });
}

export function cardFace(card) {
  const rank = card.slice(0, -1);
  const suit = card.slice(-1);
  const colour = "HD".includes(suit) ? "#b3122e" : "#1b1b1b";
  return picture([
    element("rect", { x: 1, y: 1, width: WIDTH - 2, height: HEIGHT - 2, rx: 6, fill: "#fffdf7",
                      stroke: "#6b6b6b" }),
    element("text", { x: 6, y: 19, "font-size": 15, "font-weight": "bold", fill: colour }, rank),
    element("text", { x: 6, y: 34, "font-size": 14, fill: colour }, SYMBOLS[suit]),
    element("text", { x: WIDTH / 2, y: HEIGHT / 2 + 14, "font-size": 38, fill: colour,
                      "text-anchor": "middle" }, SYMBOLS[suit]),
    element("text", { x: WIDTH - 6, y: HEIGHT - 8, "font-size": 15, "font-weight": "bold",
                      fill: colour, "text-anchor": "end" }, rank),
  ]);
}

export function cardBack() {
  const back = picture([
    element("rect", { x: 1, y: 1, width: WIDTH - 2, height: HEIGHT - 2, rx: 6, fill: "#1f5fbf",
                      stroke: "#f4f1e8", "stroke-width": 3 }),
    element("rect", { x: 8, y: 8, width: WIDTH - 16, height: HEIGHT - 16, rx: 4, fill: "none",
                      stroke: "#f4f1e8" }),
  ]);
  back.setAttribute("role", "img");
  back.removeAttribute("aria-hidden");
  back.setAttribute("aria-label", say("card_back"));
  return back;
}

// A card the player may pick: a button whose name is the card in words.
export function cardButton(card, onClick) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "card";
  button.dataset.card = card;
  button.setAttribute("aria-label", cardWords(card));
  button.title = cardWords(card);
  button.append(cardFace(card));
  button.addEventListener("click", () => onClick(card, button));
  return button;
}

// "5H" as the page writes it in a sentence: "5♥".
export function cardSymbol(card) {
  return card.slice(0, -1) + SYMBOLS[card.slice(-1)];
}

// A card face up, with its words for a screen reader and an optional caption (who played it).
export function cardFigure(card, caption = "") {
  const figure = document.createElement("figure");
  figure.className = "played";
  figure.dataset.card = card;
  const label = document.createElement("span");
  label.className = "visually-hidden";
  const text = document.createElement("figcaption");
  figure.append(cardFace(card), label, text);
  captionFigure(figure, caption);
  return figure;
}

// Says a figure's words and caption anew (the page's language may have changed).
export function captionFigure(figure, caption) {
  const [label, text] = figure.querySelectorAll("span.visually-hidden, figcaption");
  label.textContent = cardWords(figure.dataset.card);
  text.textContent = caption;
  text.hidden = !caption;
}
