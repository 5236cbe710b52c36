// Drawing cards, ingredients and needs for the round page (the templates have
// the same drawing in macros.html). Card notation as in the engine:
// "S" salami, "S2" double salami, "g:4A+P", "g:15+", "g:P+6J", "g:P+3?".
"use strict";

const Cards = (() => {
  const LETTERS = { S: "salami", A: "pineapple", M: "mushroom", P: "pepper", O: "olive" };
  const INGREDIENTS = ["salami", "pineapple", "mushroom", "pepper", "olive"];
  const COLORS = { r: "red", y: "yellow", b: "brown", g: "green", p: "purple" };
  let catalog = {};

  function t(key, values = {}) {
    const template = catalog[key] ?? key;
    return template.replace(/\{(\w+)\}/g, (_, name) => (name in values ? String(values[name]) : `{${name}}`));
  }

  function esc(text) {
    return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  }

  function icon(ingredient, cls = "icon") {
    return `<svg class="${cls}" aria-hidden="true"><use href="#i-${ingredient}"/></svg>`;
  }

  function ingredientName(name) {
    return name === "any" ? t("ing.any") : t(`ing.${name}`);
  }

  /** What a card notation shows. */
  function parse(notation) {
    const [head, body] = notation.includes(":") ? notation.split(":") : [null, notation];
    if (head === null) {
      return { kind: "ingredient", ingredient: LETTERS[body[0]], double: body.endsWith("2") };
    }
    const order = { kind: "order", color: COLORS[head], special: null };
    let m;
    if ((m = body.match(/^(\d+)\+$/))) return { ...order, special: "bombastica", minimum: +m[1] };
    if ((m = body.match(/^([SAMPO])\+(\d+)([J?])$/))) {
      return { ...order, special: m[3] === "J" ? "monotoni" : "minimale", fixed: LETTERS[m[1]], count: +m[2] };
    }
    const items = body.split("+").map((part) => {
      const p = part.match(/^(\d+)?([SAMPO])$/);
      return [LETTERS[p[2]], p[1] ? +p[1] : 1];
    });
    return { ...order, items };
  }

  function recipe(c) {
    if (c.special === "bombastica") {
      return `<span class="pizza">${t("pizza.bombastica")}</span> <span class="amount">${c.minimum}+</span>`;
    }
    if (c.special) {
      const mark = c.special === "monotoni" ? "J" : "?";
      return `<span class="pizza">${t("pizza." + c.special)}</span> <span class="amount">1</span>${icon(c.fixed)}`
        + ` + <span class="amount">${c.count}</span><span class="joker">${mark}</span>`;
    }
    return c.items.map(([ing, n]) =>
      `<span class="amount">${n}</span>${icon(ing)}<span class="sr">${esc(ingredientName(ing))}</span>`).join(" + ");
  }

  /** A card as on the table: an ingredient chip or an order card in its colour. */
  function card(notation, extraClass = "") {
    const c = parse(notation);
    if (c.kind === "ingredient") {
      const name = c.double ? t("ing.double", { name: ingredientName(c.ingredient) }) : ingredientName(c.ingredient);
      return `<span class="chip${c.double ? " double" : ""} ${extraClass}" data-card="${esc(notation)}" title="${esc(name)}">`
        + `${icon(c.ingredient)}${c.double ? '<b class="x2">×2</b>' : ""}<span class="sr">${esc(name)}</span></span>`;
    }
    return `<span class="order ${c.color} ${extraClass}" data-card="${esc(notation)}">${recipe(c)}</span>`;
  }

  /** Units per ingredient as words and icons: {"pineapple": 2} → "2 × pineapple". */
  function need(units) {
    const parts = Object.entries(units).map(([ing, n]) => ing === "any"
      ? `<span class="need-part"><span class="amount">${n}</span> × ${esc(t("ing.any"))}</span>`
      : `<span class="need-part"><span class="amount">${n}</span> × ${icon(ing)} ${esc(ingredientName(ing))}</span>`);
    return parts.length ? parts.join(" + ") : esc(t("pending.nothing"));
  }

  /** Face-up rows as on the table: one row per ingredient, singles then doubles. */
  function rows(table) {
    const shown = table.rows.filter((r) => r.units);
    if (!shown.length) return `<p class="muted">${esc(t("game.table_empty"))}</p>`;
    return '<div class="rows">' + shown.map((r) => `<div class="row" data-ingredient="${r.ingredient}">`
      + `<span class="row-name">${esc(ingredientName(r.ingredient))}</span><span class="row-cards">`
      + icon(r.ingredient).repeat(r.singles)
      + `<span class="chip double">${icon(r.ingredient)}<b class="x2">×2</b></span>`.repeat(r.doubles)
      + `</span><span class="row-count">${r.units}</span></div>`).join("") + "</div>";
  }

  return { INGREDIENTS, setCatalog: (c) => { catalog = c; }, t, esc, icon, parse, card, need, rows, ingredientName };
})();
