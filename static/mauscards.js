// Drawing Maus au Chocolat's cards, helpers and verdicts for its round page,
// in the page's language (Cards.t). Cards in the engine's notation: "g5" a
// green 5, "g5/3" with its 3 coins; helpers by name ("mathieu").
"use strict";

const MausCards = (() => {
  const { t, esc } = Cards;
  const COLOURS = { r: "red", y: "yellow", g: "green", b: "blue", p: "purple" };
  const VALUES = [3, 4, 5, 6, 7];
  const TITLES = { etienne: "Etienne", henri: "Henri", mathieu: "Mathieu", maurice: "Maurice", lilly: "Lilly",
    amelie: "Amélie", claude: "Claude" };

  function parse(notation) {
    const colour = COLOURS[notation[0]];
    return { colour, value: Number(notation.slice(1).split("/")[0]), letter: notation[0] };
  }

  function colourName(colour) {
    return t(`maus.colour_${colour}`);
  }

  /** "green 5" in the page's words. */
  function cardName(notation) {
    const { colour, value } = parse(notation);
    return t("maus.card", { colour: colourName(colour), value });
  }

  /** A card as a small coloured tile showing its value; `extra`: more classes. */
  function card(notation, extra = "") {
    const { colour, value } = parse(notation);
    return `<span class="mcard mc-${colour} ${extra}" data-card="${esc(notation)}" title="${esc(cardName(notation))}">`
      + `<b>${value}</b></span>`;
  }

  function cards(list, extra = "") {
    return list.map((n) => card(n, extra)).join("");
  }

  /** "Mathieu (dung beetle)"; with `numbers`, its order number after it. */
  function helper(name, numbers = null) {
    const number = numbers ? ` <span class="order-number">${esc(t("maus.order_n", { n: numbers[name] }))}</span>` : "";
    return `<span class="helper-chip h-${name}">${esc(TITLES[name])} <small>(${esc(t(`maus.animal_${name}`))})</small>${number}</span>`;
  }

  /** What the helper did to a way of laying the cards (nothing: "as printed"). */
  function use(way) {
    const used = way.use;
    if (!used) return t("maus.use_none");
    if (!used.printed) return t(`maus.use_${used.helper}`);
    const printed = parse(used.printed);
    const laid = parse(used.laid_as);
    if (laid.value !== printed.value) {
      return t("maus.use_value", { helper: TITLES[used.helper], card: cardName(used.printed), value: laid.value });
    }
    return t("maus.use_colour", { helper: TITLES[used.helper], card: cardName(used.printed),
      colour: colourName(laid.colour) });
  }

  /** "run of one colour" and the like. */
  function kind(way) {
    return t(`maus.kind_${way.kind}_${way.single_colour ? "one" : "mixed"}`);
  }

  /** One way to lay the cards, in a line: points, what it is, what is kept, the helper's part. */
  function way(wayData) {
    return `<b class="points">${esc(t("maus.points", { n: wayData.points }))}</b> · ${esc(kind(wayData))} · `
      + `${esc(t("maus.keep"))} ${cards(wayData.kept)} · <span class="use">${esc(use(wayData))}</span>`;
  }

  /** The pad: a row per colour, a key per value; `locked` greys it out. */
  function pad(locked) {
    const off = locked ? " disabled" : "";
    return Object.entries(COLOURS).map(([letter, colour]) => `<div class="m-pad-row" role="group" `
      + `aria-label="${esc(colourName(colour))}">${VALUES.map((value) => `<button type="button" `
      + `class="mkey mc-${colour}" data-card="${letter}${value}" aria-label="${esc(cardName(letter + value))}"${off}>`
      + `${value}</button>`).join("")}</div>`).join("");
  }

  return { COLOURS, TITLES, parse, cardName, card, cards, helper, use, kind, way, pad, colourName };
})();
