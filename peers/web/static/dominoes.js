// Dominoes as SVG: one tile, a row of tiles, and the text helpers every board shares.
// The page knows no rules: it draws what the server's view says (spec/12-peers.md 12.8).

const SVG = "http://www.w3.org/2000/svg";

// Pip positions as (column, row): 0 to 9 pips on a 3 x 3 grid, 10 to 12 on a 3 x 4 one.
const CORNERS = [[0, 0], [2, 0], [0, 2], [2, 2]];
const PIPS = {
  0: [], 1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]], 4: CORNERS,
  5: [...CORNERS, [1, 1]], 6: [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1], [2, 2]],
  7: [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1], [2, 2], [1, 1]],
  8: [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1], [2, 2], [1, 0], [1, 2]],
  9: [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2], [2, 0], [2, 1], [2, 2]],
  10: [[0, 0], [0, 1], [0, 2], [0, 3], [2, 0], [2, 1], [2, 2], [2, 3], [1, 1], [1, 2]],
  11: [[0, 0], [0, 1], [0, 2], [0, 3], [2, 0], [2, 1], [2, 2], [2, 3], [1, 0.5], [1, 1.5],
       [1, 2.5]],
  12: [[0, 0], [0, 1], [0, 2], [0, 3], [1, 0], [1, 1], [1, 2], [1, 3], [2, 0], [2, 1],
       [2, 2], [2, 3]],
};

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) {
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
  }
  return node;
}

function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

// "3-5" -> [3, 5]
export function parseTile(text) {
  const [a, b] = text.split("-").map(Number);
  return [a, b];
}

export function tileText(tile) {
  return `${tile[0]}-${tile[1]}`;
}

// One tile, `a` on the left (or top, when vertical). opts: vertical, state ("legal",
// "picked", "dim", "end"), label (for screen readers and tests).
export function tile(a, b, opts = {}) {
  const vertical = Boolean(opts.vertical);
  const w = vertical ? 40 : 80;
  const h = vertical ? 80 : 40;
  const root = svg("svg", {
    viewBox: `0 0 ${w} ${h}`, class: `tile ${opts.state || ""} ${vertical ? "v" : "h"}`,
    role: "img", "aria-label": opts.label || `${a}-${b}`,
  });
  root.append(svg("rect", { x: 1, y: 1, width: w - 2, height: h - 2, rx: 6, class: "face" }));
  root.append(vertical
    ? svg("line", { x1: 6, y1: 40, x2: 34, y2: 40, class: "bar" })
    : svg("line", { x1: 40, y1: 6, x2: 40, y2: 34, class: "bar" }));
  [a, b].forEach((n, half) => {
    const tall = n > 9;           // a 3 x 4 grid: rows closer together, pips smaller
    const r = tall ? 2.7 : 3.6;
    for (const [col, row] of PIPS[n] || []) {
      const across = 9 + col * 11;                     // within the 40 x 40 half
      const along = tall ? 7 + row * 8.7 : 9 + row * 11;
      // Horizontal tiles put the grid's rows across the tile's height.
      const [x, y] = vertical ? [across, along + half * 40] : [along + half * 40, across];
      root.append(svg("circle", { cx: x + 0.5, cy: y + 0.5, r, class: "pip" }));
    }
  });
  return root;
}

// A tile as a button: keyboard and touch get the same as the mouse.
export function tileButton(text, opts, onPick) {
  const [a, b] = parseTile(text);
  const button = el("button", {
    class: `tile-button ${opts.state || ""}`, type: "button",
    "aria-label": opts.label || text, "data-tile": text,
    disabled: opts.disabled || false, onclick: onPick,
  });
  button.append(tile(a, b, opts));
  return button;
}

// A row of tiles as played: doubles stand across the line, as on a table.
export function line(tiles, opts = {}) {
  const row = el("div", { class: `line ${opts.class || ""}` });
  for (const [a, b] of tiles) {
    row.append(tile(a, b, { vertical: a === b, state: opts.state }));
  }
  return row;
}

export function plural(n, noun) {
  return `${n} ${noun}${n === 1 ? "" : noun.endsWith("s") ? "es" : "s"}`;
}

export function seatName(seat, me) {
  return seat === me ? "you" : `seat ${seat}`;
}

export function halves(n) {
  return n % 2 === 0 ? String(n / 2) : `${(n - (n > 0 ? 1 : -1)) / 2}.5`.replace(/^0\.5/, "0.5");
}
