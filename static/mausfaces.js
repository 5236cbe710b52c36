// Maus au Chocolat faces as the teaching page shows them: a card in its
// colour with its sweet value and its coins ("g5/3": a green 5 with 3
// coins), and the pad of faces still missing, one row per colour, each
// value's faces side by side. Taps are caught as on Mamma Mia!'s pad
// (Cards.onPadTap: any button with data-card).
"use strict";

const MausFaces = (() => {
  const COLOURS = { r: "red", y: "yellow", g: "green", b: "blue", p: "purple" };
  const FACE = /^([rygbp])([0-9])\/([0-9])$/;
  const { t, esc } = Cards;

  /** {colour, value, coins} of a face's notation, or null. */
  function parse(notation) {
    const found = FACE.exec(notation);
    return found ? { colour: COLOURS[found[1]], value: Number(found[2]), coins: Number(found[3]) } : null;
  }

  function label(face) {
    return t("teach.maus_face", { colour: t(`teach.maus_${face.colour}`), value: face.value, coins: face.coins });
  }

  /** A face as a small card: its value large, a coin mark per coin. */
  function card(notation, extraClass = "") {
    const face = parse(notation);
    if (!face) return `<span class="maus-face ${extraClass}">${esc(notation)}</span>`;
    return `<span class="maus-face ${face.colour} ${extraClass}" data-card="${esc(notation)}" title="${esc(label(face))}">`
      + `<b>${face.value}</b><span class="coins" aria-hidden="true">${"●".repeat(face.coins)}</span>`
      + `<span class="sr">${esc(label(face))}</span></span>`;
  }

  /** The pad offering `cards` (notations): one row per colour that has any. */
  function pad(cards, { locked = false, marked = null } = {}) {
    const off = locked ? " disabled" : "";
    let html = "";
    for (const colour of Object.values(COLOURS)) {
      const faces = cards.filter((c) => (parse(c) || {}).colour === colour);
      if (!faces.length) continue;
      html += `<div class="pad-group ${colour}" data-color="${colour}"><h3><span class="dot maus-${colour}"></span>`
        + `${esc(t(`teach.maus_${colour}`))}</h3><div class="pad-orders">`
        + faces.map((f) => `<button type="button" class="pad-order${f === marked ? " suggested" : ""}" `
          + `data-card="${esc(f)}" aria-label="${esc(label(parse(f)))}"${off}>${card(f)}</button>`).join("")
        + "</div></div>";
    }
    return html;
  }

  return { parse, card, pad };
})();
