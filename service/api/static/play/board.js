// The pegging board, drawn in the page: rows of thirty holes, one track a side, the front peg at
// the score and the back peg at the score before, the score written beside the front peg, and
// the game hole at the end of the last row. Beside it, each side's score in large figures.
import { say } from "./texts.js";

const SVG = "http://www.w3.org/2000/svg";
export const SIDE_COLOURS = ["#c0392b", "#1f5fbf", "#1e8449"];
const PER_ROW = 30;
const SPACING = 10;
const GROUP_GAP = 5; // between groups of five holes
const TRACK = 13;
const ROW_GAP = 24; // room for the score beside a peg, above the top track and below the bottom
const LEFT = 24; // the start holes
const RIGHT = 48; // the row's last number and the game hole
const MARGIN = 6;

function element(name, attributes = {}, text = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text !== null) node.textContent = text;
  return node;
}

function column(index) {
  return LEFT + index * SPACING + Math.floor(index / 5) * GROUP_GAP + SPACING / 2;
}

// sides: [{name, front, back}], front and back being scores; target: the game point.
export function boardPicture(sides, target) {
  const rows = Math.ceil((target - 1) / PER_ROW);
  const rowHeight = sides.length * TRACK + ROW_GAP;
  const width = column(PER_ROW - 1) + SPACING / 2 + RIGHT;
  const height = MARGIN + rows * rowHeight;
  const top = (row) => MARGIN + ROW_GAP / 2 + row * rowHeight;
  const lastRowMiddle = top(rows - 1) + (sides.length * TRACK) / 2;
  const gameHole = { x: width - 12, y: lastRowMiddle };

  function hole(side, score) {
    if (score >= target) return gameHole;
    if (score === 0) return { x: LEFT / 2, y: top(0) + side * TRACK + TRACK / 2 };
    const row = Math.floor((score - 1) / PER_ROW);
    return { x: column((score - 1) % PER_ROW), y: top(row) + side * TRACK + TRACK / 2 };
  }

  const svg = element("svg", { viewBox: `0 0 ${width} ${height}`, role: "img",
                               "aria-label": say("board_alt", { scores: sides.map((side) =>
                                 `${side.name} ${side.front}`).join(", ") }) });
  svg.append(element("rect", { x: 0, y: 0, width, height, rx: 8, fill: "#c8a26b" }));
  for (let row = 0; row < rows; row += 1) {
    const first = row * PER_ROW + 1;
    const last = Math.min(first + PER_ROW - 1, target - 1);
    sides.forEach((_, side) => {
      const y = top(row) + side * TRACK;
      svg.append(element("rect", { x: LEFT - 2, y: y + 1, height: TRACK - 2, rx: 4,
                                   width: column(last - first) + SPACING / 2 - LEFT + 4,
                                   fill: SIDE_COLOURS[side], "fill-opacity": 0.3 }));
      for (let score = first; score <= last; score += 1) {
        const { x, y: holeY } = hole(side, score);
        svg.append(element("circle", { cx: x, cy: holeY, r: 1.7, fill: "#4a3018" }));
      }
    });
    svg.append(element("text", { x: column(last - first) + SPACING, y: top(row) + TRACK + 3,
                                 "font-size": 8, fill: "#4a3018" }, String(last)));
  }
  sides.forEach((_, side) => {
    const start = hole(side, 0);
    svg.append(element("circle", { cx: start.x, cy: start.y, r: 2.2, fill: "#4a3018" }));
  });
  svg.append(
    element("circle", { cx: gameHole.x, cy: gameHole.y, r: 6.5, fill: "#4a3018",
                        stroke: "#ffd866", "stroke-width": 2, "data-game-hole": String(target) }),
    element("text", { x: gameHole.x, y: gameHole.y - 10, "font-size": 9, "font-weight": "bold",
                      "text-anchor": "middle", fill: "#1b1b1b" }, String(target)));
  sides.forEach((peg, side) => {
    const colour = SIDE_COLOURS[side];
    const back = hole(side, peg.back);
    const front = hole(side, peg.front);
    const above = side === 0;
    svg.append(
      element("circle", { cx: back.x, cy: back.y, r: 3.6, fill: "#ffffff", stroke: colour,
                          "stroke-width": 2.2, "data-peg": "back", "data-side": String(side),
                          "data-score": String(peg.back) }),
      element("circle", { cx: front.x, cy: front.y, r: 5, fill: colour, stroke: "#1b1b1b",
                          "stroke-width": 1.4, "data-peg": "front", "data-side": String(side),
                          "data-score": String(peg.front) }),
      element("text", { x: front.x, y: above ? front.y - 7.5 : front.y + 15.5, "font-size": 11,
                        "font-weight": "bold", "text-anchor": "middle", fill: colour,
                        stroke: "#f4f1e8", "stroke-width": 2.5, "paint-order": "stroke",
                        "data-score-label": String(side) }, String(peg.front)));
  });
  return svg;
}

// Each side's score in large figures, with its last points and what it still needs.
export function scoreList(sides, target) {
  return sides.map((peg, side) => {
    const item = document.createElement("li");
    item.dataset.side = String(side);
    item.className = `side-${side}`;
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = peg.name;
    const points = document.createElement("span");
    points.className = "points";
    points.textContent = String(peg.front);
    const detail = document.createElement("span");
    detail.className = "detail";
    const gained = peg.front - peg.back;
    detail.textContent = [gained > 0 ? `+${gained}` : "",
                          say("to_go", { points: Math.max(target - peg.front, 0) })]
      .filter(Boolean).join(" · ");
    item.append(name, points, detail);
    return item;
  });
}
