// Drawing cards, ingredients, needs and the manual-entry pad for the round and
// teaching pages (the templates have the same card drawing in macros.html).
// Card notation as in the engine: "S" salami, "S2" double salami, "g:4A+P",
// "g:15+", "g:P+6J", "g:P+3?", "!" the Mamma Mia! card.
"use strict";

const Cards = (() => {
  const LETTERS = { S: "salami", A: "pineapple", M: "mushroom", P: "pepper", O: "olive" };
  const INGREDIENTS = ["salami", "pineapple", "mushroom", "pepper", "olive"];
  const COLORS = { r: "red", y: "yellow", b: "brown", g: "green", p: "purple" };
  const MAMMA_MIA = "!";
  let catalog = {};
  // the browser's CLDR plural rules, as Babel's on the server (see companion/web/i18n.py)
  const LANG = document.documentElement.lang || "en";
  const RULES = { count: new Intl.PluralRules(LANG), ordinal: new Intl.PluralRules(LANG, { type: "ordinal" }) };

  /** The catalog's message `key` with its {placeholders} filled from `values`; a
   * counted message takes the form of its count, and {n:nth} is n as an ordinal. */
  function t(key, values = {}) {
    let template = catalog[key] ?? key;
    if (typeof template === "object") {
      const kind = "ordinal" in template ? "ordinal" : "count";
      template = template[RULES[kind].select(values[template[kind]])] ?? template.other;
    }
    return template.replace(/\{(\w+)(?::(nth|nth_f))?\}/g, (whole, name, nth) => {
      if (!(name in values)) return whole;
      return nth ? t(`num.${nth}`, { n: values[name] }) : String(values[name]);
    });
  }

  function esc(text) {
    return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  }

  function icon(ingredient, cls = "icon") {
    return `<svg class="${cls}" aria-hidden="true"><use href="#i-${ingredient}"/></svg>`;
  }

  /** The ingredient cards in the pad's order, with the doubles when `doubles`. */
  function ingredientCards(doubles) {
    const singles = Object.keys(LETTERS);
    return doubles ? [...singles, ...singles.map((letter) => `${letter}2`)] : singles;
  }

  function ingredientName(name) {
    return name === "any" ? t("ing.any") : t(`ing.${name}`);
  }

  /** What a card notation shows. */
  function parse(notation) {
    if (notation === MAMMA_MIA) return { kind: "mamma_mia" };
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

  // `short`: the special pizzas by their own name only, for the round page's compact pad
  function recipe(c, short = false) {
    const name = (special) => `<span class="pizza">${esc(t(`pizza.${short ? "short." : ""}${special}`))}</span>`;
    if (c.special === "bombastica") {
      return `${name("bombastica")} <span class="amount">${c.minimum}+</span>`;
    }
    if (c.special) {
      const mark = c.special === "monotoni" ? "J" : "?";
      const plus = short ? "+" : " + ";
      return `${name(c.special)} <span class="recipe-line"><span class="amount">1</span>${icon(c.fixed)}`
        + `${plus}<span class="amount">${c.count}</span><span class="joker">${mark}</span></span>`;
    }
    // one of each (the five-ingredient order): on the compact pad the icons say it alone
    const ones = short && c.items.every(([, n]) => n === 1);
    return c.items.map(([ing, n]) =>
      `${ones ? "" : `<span class="amount">${n}</span>`}${icon(ing)}<span class="sr">${ones ? "1 " : ""}${esc(ingredientName(ing))}</span>`)
      .join(short ? '<span class="plus"> </span>' : " + ");
  }

  /** A card as on the table: an ingredient chip, an order card in its colour, or the Mamma Mia! card. */
  function card(notation, extraClass = "", short = false) {
    const c = parse(notation);
    if (c.kind === "mamma_mia") {
      return `<span class="mamma-mia ${extraClass}" data-card="${MAMMA_MIA}">${esc(t("card.mamma_mia"))}</span>`;
    }
    if (c.kind === "ingredient") {
      const name = c.double ? t("ing.double", { name: ingredientName(c.ingredient) }) : ingredientName(c.ingredient);
      return `<span class="chip${c.double ? " double" : ""} ${extraClass}" data-card="${esc(notation)}" title="${esc(name)}">`
        + `${icon(c.ingredient)}${c.double ? '<b class="x2">×2</b>' : ""}<span class="sr">${esc(name)}</span></span>`;
    }
    return `<span class="order ${c.color} ${extraClass}" data-card="${esc(notation)}">${recipe(c, short)}</span>`;
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

  /** Shows `text` in a page's message box (`kind`: info, warn or error); no text hides it. */
  function say(box, text, kind = "info", html = false) {
    box.hidden = !text;
    box.className = `message ${kind}`;
    if (html) box.innerHTML = text; else box.textContent = text || "";
  }

  /** Why the API refused a request (`status` 0: the server was not reached), as HTML:
   * a device without the table code gets a link to `join`, where it is typed. */
  function refusal(status, data, join) {
    if (status === 403 && data.field === "table_code") {
      return `${esc(data.error)} <a class="button" href="${esc(join)}">${esc(t("code.submit"))}</a>`;
    }
    return esc(status ? t("err.refused", { reason: data.error || status }) : t("err.network"));
  }

  /** The manual-entry pad offering `cards`, in the pad's order: the five
   * ingredients, the doubles, one row of orders per entry of `groups`
   * ({color, title, empty}: `empty` is said when the row has no card; a row
   * without it is left out), then the Mamma Mia! card. `marked` is
   * highlighted: the card a tap most likely means. */
  function pad(cards, { groups = [], locked = false, marked = null, short = false } = {}) {
    const offered = new Set(cards);
    const off = locked ? " disabled" : "";
    const mark = (notation) => (notation === marked ? " suggested" : "");
    // an order of more than two ingredients takes two places of the compact pad
    const wide = (notation) => (short && (parse(notation).items || []).length > 2 ? " wide" : "");
    const key = (notation, ingredient, double) => {
      const name = double ? t("ing.double", { name: ingredientName(ingredient) }) : ingredientName(ingredient);
      return `<button type="button" class="pad-key${double ? " double" : ""}${mark(notation)}" data-card="${notation}"`
        + ` aria-label="${esc(name)}"${off}>${icon(ingredient, "icon big")}${double ? '<b class="x2">×2</b>' : ""}`
        + `<span>${esc(ingredientName(ingredient))}</span></button>`;
    };
    const keys = (double) => ingredientCards(true).filter((n) => offered.has(n) && n.endsWith("2") === double)
      .map((n) => key(n, LETTERS[n[0]], double)).join("");
    const singles = keys(false);
    const doubles = keys(true);
    let html = singles ? `<div class="pad-ingredients" role="group" aria-label="${esc(t("game.pad_ingredients"))}">${singles}</div>` : "";
    if (doubles) {
      html += `<h3 class="doubles-title">${esc(t("game.pad_doubles"))}</h3>`
        + `<div class="pad-ingredients doubles" role="group" aria-label="${esc(t("game.pad_doubles"))}">${doubles}</div>`;
    }
    for (const group of groups) {
      const orders = cards.filter((c) => c.includes(":") && parse(c).color === group.color);
      if (!orders.length && !group.empty) continue;
      html += `<div class="pad-group ${group.color}" data-color="${group.color}">`
        + `<h3><span class="dot ${group.color}"></span>${esc(group.title)}</h3>`
        + (orders.length
          ? `<div class="pad-orders">${orders.map((o) => `<button type="button" class="pad-order${mark(o)}${wide(o)}" `
            + `data-card="${esc(o)}"${off}>${card(o, "", short)}</button>`).join("")}</div>`
          : `<p class="muted">${esc(group.empty)}</p>`) + "</div>";
    }
    if (offered.has(MAMMA_MIA)) {
      html += `<div class="pad-group"><button type="button" class="pad-order${mark(MAMMA_MIA)}" data-card="${MAMMA_MIA}"${off}>`
        + `${card(MAMMA_MIA)}</button></div>`;
    }
    return html;
  }

  /** Calls `tapped(card)` for every tap on a pad key drawn inside `box`, however often it is redrawn. */
  function onPadTap(box, tapped) {
    box.addEventListener("click", (event) => {
      const key = event.target.closest("button[data-card]");
      if (key && box.contains(key) && !key.disabled) tapped(key.dataset.card);
    });
  }

  return { INGREDIENTS, COLORS, setCatalog: (c) => { catalog = c; }, t, esc, icon, parse, card, need, rows, ingredientName, ingredientCards, pad, onPadTap, say, refusal };
})();
