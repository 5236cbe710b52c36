// The round page: draws the game state and sends each tap to the JSON API.
// Every write carries the version it was based on; a 409 means another device
// was first, so the page reloads the state and says so (nothing was changed).
// Changes made on other devices come in through livefeed.js.
// Taps on the pad wait their turn in the queue of taps.js; the other moves
// wait for it to be empty.
"use strict";

(() => {
  const root = document.getElementById("game");
  const api = root.dataset.api;
  const { t, esc, card, need, rows, icon, ingredientName } = Cards;
  Cards.setCatalog(JSON.parse(document.getElementById("catalog-data").textContent));
  let state = JSON.parse(document.getElementById("state-data").textContent);
  let acting = false;  // a move other than a tap is on its way
  let acted = Promise.resolve();  // settles once that move is answered
  let padDrawn = "";
  let tapAgain = false;  // the message names taps to make again once the owner has decided
  const TOAST_MS = 4000;
  const listeners = [];
  const $ = (id) => document.getElementById(id);

  // talking to the API ---------------------------------------------------------------

  // {status, data}; status 0 when the server was not reached
  async function post(action, body, version) {
    try {
      const response = await fetch(`${api}/${action}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ ...body, version }),
      });
      return { status: response.status, data: await response.json().catch(() => ({})) };
    } catch (error) {
      return { status: 0, data: {} };
    }
  }

  function busy() {
    return acting || !taps.idle();
  }

  // true when the game accepted the move, false when refused, "busy" when another move is under way
  async function act(action, body = {}) {
    if (busy()) return "busy";
    let answered;
    acted = new Promise((resolve) => { answered = resolve; });
    setActing(true);
    const { status, data } = await post(action, body, state.version);
    if (status === 200) {
      state = data;
      if (!(tapAgain && action === "decide")) message(null);
      if (action === "undo") toast(tookBack(data.undone, data));
    } else if (status === 409) {
      await reload().catch(() => {});
      message(t("err.stale"), "warn");
    } else {
      message(Cards.refusal(status, data, root.dataset.join), "error", true);
    }
    setActing(false);
    answered();
    return status === 200;
  }

  // a tap from the camera panel may come while another move is on its way: it goes after its answer
  const taps = Taps.queue({ version: () => acted.then(() => state.version), send: sendTap, dropped: tapsDropped,
    changed: render });

  async function sendTap(picked, version) {
    // the owner decides first: the pad is locked now, and what was tapped behind the order is dropped
    if (state.pending) return { recorded: false, kind: "order" };
    if (state.phase !== "evaluating") return { recorded: false, kind: "over" };
    const { status, data } = await post("reveal", { card: picked }, version);
    if (status === 200) {
      state = data;
      message(null);
      return { recorded: true, version: data.version };
    }
    if (status === 409) {
      await reload().catch(() => {});
      return { recorded: false, kind: "stale" };
    }
    if (status !== 0) return { recorded: false, kind: "refused", status, data };
    // the reply may have been lost after the server recorded the tap
    const known = state.version;
    const reached = await reload().then(() => true, () => false);
    return { recorded: false, kind: "network", unsure: !reached || state.version !== known };
  }

  function tapsDropped(cards, why) {
    tapAgain = why.kind === "order";
    const lost = (list) => list.length
      ? ` <span class="tap-lost">${esc(t("tap.lost"))} ${Taps.chips(list)}</span>` : "";
    if (why.kind === "order") {
      message(`${esc(t("tap.lost_order"))} <span class="tap-lost">${Taps.chips(cards)}</span>`, "warn", true);
    } else if (why.kind === "stale") {
      message(esc(t("err.stale")) + lost(cards), "error", true);
    } else if (why.kind === "refused") {
      message(Cards.refusal(why.status, why.data, root.dataset.join) + lost(cards), "error", true);
    } else if (why.kind === "network" && why.unsure) {
      message(`${esc(t("tap.unsure"))} <span class="tap-unsure">${Taps.chips(cards.slice(0, 1))}</span>`
        + lost(cards.slice(1)), "error", true);
    } else if (why.kind === "network") {
      message(esc(t("err.network")) + lost(cards), "error", true);
    } else {
      message(lost(cards).trim(), "error", true);
    }
  }

  async function reload() {
    const response = await fetch(api, { headers: { Accept: "application/json" } });
    if (!response.ok) return;
    const next = await response.json();
    if (next.version >= state.version) state = next;  // a reply that overtook this one is newer
  }

  // another tablet may be playing the same game: its changes are pushed here as they
  // happen; polling every POLL_SECONDS is the fallback (0 turns it off)
  function pushed(next) {
    if (busy()) { setTimeout(() => pushed(next), 200); return; }  // after this page's own move
    if (next.version > state.version) { state = next; render(); }
  }

  LiveFeed.follow({
    url: root.dataset.live,
    got: pushed,
    pollSeconds: Number(root.dataset.poll),
    async poll() {
      if (busy()) return;
      const seen = state.version;
      try { await reload(); } catch (error) { return; }
      if (state.version !== seen && !busy()) render();
    },
    gone() {
      message(`${esc(t("game.deleted"))} <a class="button" href="${esc(root.dataset.home)}">`
        + `${esc(t("game.back_to_games"))}</a>`, "warn", true);
    },
  });

  function setActing(value) {
    acting = value;
    document.body.classList.toggle("busy", value);
    render();
  }

  function message(text, kind = "info", html = false) {
    if (!text) tapAgain = false;
    Cards.say($("message"), text, kind, html);
  }

  // a short note that goes by itself (what Undo took back)
  let toastTimer = null;
  function toast(html) {
    const box = $("toast");
    box.innerHTML = html;
    box.hidden = !html;
    clearTimeout(toastTimer);
    if (html) toastTimer = setTimeout(() => { box.hidden = true; }, TOAST_MS);
  }

  // what an undo took back, in words: the answer names the event, the states before and after say whose
  function tookBack(undone, after) {
    if (!undone) return esc(t("undo.nothing"));
    const what = (key, values = {}, cardHtml = "") => `${esc(t(key, values))}${cardHtml ? ` ${cardHtml}` : ""}`;
    if (undone.type === "card_revealed") return what("undo.card", {}, card(undone.card));
    if (undone.type === "order_decided" && after.pending) {
      return what("undo.decision", { name: after.pending.player }, card(after.pending.card));
    }
    if (undone.type === "round_ended") return what("undo.round_end", { round: after.round });
    if (undone.type === "hands_counted") return what("undo.hands");
    return esc(t("undo.done"));
  }

  // drawing ---------------------------------------------------------------------------

  function render() {
    const evaluating = state.phase === "evaluating";
    root.dataset.phase = state.phase;
    $("round-title").textContent = evaluating
      ? t("game.round", { round: state.round, rounds: state.rounds }) : t(`phase.${state.phase}`);
    $("next").textContent = nextStep();
    $("undo").disabled = !state.can_undo || busy();
    // once the round's cards are all turned over, only the scores matter: no pad, no table, no timeline
    for (const id of ["live", "round-end", "table-panel", "timeline-panel"]) $(id).hidden = !evaluating;
    $("after-game").hidden = evaluating;
    renderRoundEnd();
    $("setup").hidden = !(evaluating && state.round === 1 && state.timeline.length === 0);
    $("table").innerHTML = rows(state.table);
    renderLive();
    renderLeftovers();
    renderPending();
    renderTimeline();
    renderPad();
    Standings.draw(state, act);
    listeners.forEach((listener) => listener(state));
  }

  // the live strip: the card just revealed and the face-up table, next to the pad
  let lastShown = "";
  function renderLive() {
    const waiting = taps.cards();
    const entry = state.timeline[state.timeline.length - 1];
    const last = waiting.length ? waiting[waiting.length - 1] : entry && entry.card;
    const box = $("last-card");
    const key = `${state.timeline.length}:${waiting.length}:${last}`;
    box.innerHTML = last ? card(last, waiting.length ? "queued" : "") : `<span class="muted">${esc(t("live.none"))}</span>`;
    box.dataset.card = last || "";
    $("table-counts").innerHTML = state.table.rows.map((r) =>
      `<span class="count${r.units ? "" : " zero"}" data-ingredient="${r.ingredient}" title="${esc(ingredientName(r.ingredient))}">`
      + `${icon(r.ingredient)}<b>${r.units}</b><span class="sr">${esc(ingredientName(r.ingredient))}</span></span>`).join("");
    if (key !== lastShown && lastShown) flash($("live"));
    lastShown = key;
  }

  // a change drawn where the player looks: the strip lights up for a moment
  function flash(element) {
    element.classList.remove("flash");
    void element.offsetWidth;  // restart the animation
    element.classList.add("flash");
  }

  function renderRoundEnd() {
    const end = $("end-round");
    const asking = !$("end-confirm").hidden;
    end.hidden = asking;
    end.textContent = t("game.end_round", { round: state.round });
    end.disabled = Boolean(state.pending) || busy();
    $("end-question").textContent = t("end.question", { round: state.round, next: state.round + 1 });
    if (state.round >= state.rounds) $("end-question").textContent = t("end.question_last", { round: state.round });
    $("end-yes").textContent = t("end.yes", { round: state.round });
    $("end-yes").disabled = Boolean(state.pending) || busy();
  }

  function askEndRound(asking) {
    $("end-confirm").hidden = !asking;
    renderRoundEnd();
    (asking ? $("end-yes") : $("end-round")).focus({ preventScroll: true });
  }

  function nextStep() {
    if (state.phase === "over") return t("next.over");
    if (state.phase === "counting") return t("next.counting");
    if (state.pending) return t("next.pending", { name: state.pending.player });
    return t("next.evaluating", { round: state.round });
  }

  function renderLeftovers() {
    const box = $("leftovers");
    const carried = state.leftovers_in.units > 0 && state.phase === "evaluating";
    box.hidden = !carried;
    if (carried) {
      box.innerHTML = `${esc(t("game.leftovers", { round: state.round - 1 }))} `
        + `<span class="cards">${state.leftovers_in.notation.split(" ").map(expand).flat().map((c) => card(c)).join("")}</span>`;
    }
  }

  // "3S" → ["S", "S", "S"], "2A2" → ["A2", "A2"]
  function expand(part) {
    const m = part.match(/^(\d*)([SAMPO]2?)$/);
    return m ? Array(m[1] ? +m[1] : 1).fill(m[2]) : [];
  }

  function renderPending() {
    const box = $("pending");
    const p = state.pending;
    const appearing = Boolean(p) && box.hidden;
    box.hidden = !p;
    $("pending-backdrop").hidden = !p;
    if (!p) { box.innerHTML = ""; return; }
    const c = Cards.parse(p.card);
    const decline = `<button type="button" class="button huge decline" data-accept="false">${esc(t("pending.cant"))}</button>`;
    let choices;
    if (p.options.length === 0) {
      choices = `<p class="none-eligible">${esc(t("pending.none_eligible", { personal: ingredientName(c.fixed) }))}</p>`;
    } else if (p.options.length === 1) {
      const o = p.options[0];
      choices = (o.choice ? `<p>${esc(t("verdict.minimale", { name: ingredientName(o.choice) }))}</p>` : "")
        + `<p class="add-from-hand">${need(o.needed)}</p>`
        + `<button type="button" class="button huge primary accept" data-accept="true" data-choice="${o.choice ?? ""}">`
        + `${esc(t("pending.added"))}</button>`;
    } else {
      const label = c.special === "monotoni" ? t("pending.joker_pick") : t("pending.minimale_pick");
      choices = `<p>${esc(label)}</p><div class="options">` + p.options.map((o) =>
        `<button type="button" class="button option accept" data-accept="true" data-choice="${o.choice}">`
        + `<span class="option-name">${icon(o.choice)} ${esc(ingredientName(o.choice))}</span>`
        + `<span class="option-need">${esc(t("pending.add"))}: ${need(o.needed)}</span></button>`).join("") + "</div>";
    }
    box.className = `panel pending sheet ${c.color}`;
    box.innerHTML = `<h2 class="pending-title">${esc(t("pending.title", { name: p.player }))}</h2>`
      + `<div class="pending-card">${card(p.card, "big")}</div>`
      + `<p class="needs"><b>${esc(t("pending.needs"))}:</b> ${esc(needsText(c))}</p>`
      + `<div class="face-up"><h3>${esc(t("pending.face_up"))}</h3>${rows(p.table)}</div>`
      + `<h3>${esc(t("pending.add"))}</h3>${choices}<div class="decide">${decline}</div>`;
    box.querySelectorAll("button[data-accept]").forEach((button) => button.addEventListener("click", () =>
      act("decide", { accept: button.dataset.accept === "true", choice: button.dataset.choice || null })));
    // the game stops here: the order comes up over the page, which keeps its place under it
    if (appearing) box.scrollTop = 0;
  }

  function needsText(c) {
    if (c.special === "bombastica") return t("needs.bombastica", { n: c.minimum });
    if (c.special) return t(`needs.${c.special}`, { fixed: ingredientName(c.fixed), n: c.count });
    return c.items.map(([ing, n]) => `${n} × ${ingredientName(ing)}`).join(" + ");
  }

  function renderTimeline() {
    const list = $("timeline");
    const waiting = taps.cards().map((c) => `<li class="tl-queued" data-card="${esc(c)}">${card(c)}</li>`).join("");
    if (!state.timeline.length && !waiting) {
      list.innerHTML = `<li class="muted">${esc(t("game.timeline_empty"))}</li>`;
      return;
    }
    list.innerHTML = state.timeline.map((e) => {
      if (e.kind !== "order") return `<li class="tl tl-ingredient" data-card="${esc(e.card)}">${card(e.card)}</li>`;
      const verdict = e.pending ? "waiting" : e.outcome.fulfilled ? "delivered" : "returned";
      const who = verdict === "waiting" ? "" : `<b>${esc(e.player)}</b>: `;
      return `<li class="tl tl-order ${verdict}" data-card="${esc(e.card)}" data-verdict="${verdict}">`
        + `${card(e.card)}<span class="tl-text">${who}${verdictText(e, verdict)}</span></li>`;
    }).join("") + waiting;
    list.scrollTop = list.scrollHeight;  // the newest card in view, without scrolling the page
  }

  function verdictText(entry, verdict) {
    if (verdict === "waiting") return esc(t("verdict.waiting", { name: entry.player }));
    const o = entry.outcome;
    let text = `<span class="verdict">${esc(t(`verdict.${verdict}`))}</span>`;
    const special = Cards.parse(entry.card).special;
    if (o.choice) {
      text += ` · ${esc(t(special === "monotoni" ? "verdict.joker" : "verdict.minimale", { name: ingredientName(o.choice) }))}`;
    }
    if (o.fulfilled && Object.keys(o.needed).length) {
      text += ` · <span class="from-hand">${t("verdict.from_hand", { what: need(o.needed) })}</span>`;
    }
    if (!o.fulfilled && o.eligible && !o.eligible.length) text += ` · ${esc(t("verdict.none_eligible"))}`;
    return text;
  }

  function renderPad() {
    const pad = $("pad");
    pad.hidden = state.phase !== "evaluating";
    const groups = state.players.map((p) => ({
      color: p.color, title: t("game.pad_orders", { name: p.name }), empty: t("game.pad_no_orders") }));
    const html = Cards.pad([...Cards.ingredientCards(state.doubled), ...state.players.flatMap((p) => p.revealable)],
      { groups, locked: Boolean(state.pending) || acting, short: true });
    // a key replaced between press and release would swallow the tap: redraw only what changed
    if (html !== padDrawn) $("pad-keys").innerHTML = padDrawn = html;
    const waiting = taps.cards();
    const queue = $("tap-queue");
    queue.classList.toggle("empty", !waiting.length);
    queue.innerHTML = waiting.length
      ? `<span class="tap-queue-label">${esc(t("tap.waiting"))}</span> ${Taps.chips(waiting)}` : "";
  }

  // wiring ----------------------------------------------------------------------------

  Cards.onPadTap($("pad-keys"), (picked) => taps.add(picked));
  $("undo").addEventListener("click", () => act("undo"));
  $("end-round").addEventListener("click", () => askEndRound(true));
  $("end-no").addEventListener("click", () => askEndRound(false));
  $("end-yes").addEventListener("click", async () => {
    const ended = await act("end-round");
    if (ended !== "busy") askEndRound(false);
  });

  // what camera.js uses: the state, a state the camera's answers bring, the same
  // moves as the taps (a card read from a photo is a tap), and a call after each drawing
  window.Table = {
    state: () => state,
    busy,
    act,
    tap: (picked) => taps.add(picked),
    message,
    show(next) { if (next.version >= state.version) { state = next; render(); } },
    onRender(listener) { listeners.push(listener); listener(state); },
  };
  render();
})();
