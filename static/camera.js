// The camera panel of the round page: scanning the oven pile as it is turned.
//
// Live: the rear camera's picture is drawn on a canvas 640 px wide and sent
// as a JPEG about 8 times a second, never more than one request at a time;
// the server's flip tracker reveals each card that lands and the answer is the
// new state, drawn at once. While an order waits for its owner nothing is
// sent (the player stops turning cards too); sending resumes after the
// decision. An unsure card is shown with its candidates, likeliest first, for
// a one-tap choice, and "something else" opens the pad (the camera keeps going
// meanwhile: the server holds later cards behind it). The server has judged
// every reading among the cards the game allows next: a card the rules rule
// out is never offered.
//
// Fallbacks: a photo of the top card (the phone's own camera app, which works
// over plain HTTP) is revealed at once when sure, else offered the same way; a
// video file (or the demo's bundled sample) is read by the server and its cards
// are revealed here one by one, stopping at each order for its decision. The
// demo keeps how far it got in the browser's storage, so a reload part way
// offers to go on from there.
"use strict";

(() => {
  const panel = document.getElementById("camera-panel");
  if (!panel || !window.Table) return;
  const { t, esc, card } = Cards;
  const { sleep } = LiveCamera;
  const $ = (id) => document.getElementById(id);
  const FRAME_WIDTH = 640;
  const FRAME_INTERVAL_MS = 125;  // ~8 frames a second: well under the server's limit of 20
  const SEQUENCE_STEP_MS = 700;   // a video's cards appear one by one, readable as they come
  const device = deviceId();
  // the capture time of each card the camera revealed, and when it was drawn (for the benchmark)
  window.cameraLog = [];

  let running = false;
  let choice = null;      // {id, title, options: [card], pick(card|null), pad} while the chooser is open
  let sequence = null;    // {cards, next, demo} while a video's cards are being revealed
  const demoKey = `mamma-mia-demo-${document.getElementById("game").dataset.game}`;
  const answered = new Set();  // ids of unsure camera cards already answered
  let chooserDrawn = "";       // the chooser's HTML as last drawn

  // the camera ---------------------------------------------------------------------------

  async function start() {
    const started = await LiveCamera.start($("cam-video"));
    if (started !== "ok") {
      status(t(`cam.${started}`), "warn");
      $("cam-fallback").open = true;
      return;
    }
    running = true;
    draw();
    pump();
  }

  function stop() {
    running = false;
    LiveCamera.stop($("cam-video"));
    draw();
  }

  async function pump() {
    const video = $("cam-video");
    const canvas = document.createElement("canvas");
    while (running) {
      const began = Date.now();
      const state = Table.state();
      if (state.phase !== "evaluating") { stop(); break; }
      // an unsure card does not stop the camera: the server keeps later cards behind it
      if (state.pending || sequence || !video.videoWidth) {
        if (state.pending) status(t("cam.paused"));
        await sleep(150);
        continue;
      }
      LiveCamera.grab(video, canvas, FRAME_WIDTH);
      const captured = Date.now();
      await send(await LiveCamera.jpeg(canvas), captured);
      await sleep(Math.max(0, FRAME_INTERVAL_MS - (Date.now() - began)));
    }
  }

  async function send(blob, captured) {
    let response;
    try {
      response = await fetch(`${panel.dataset.frame}?device=${device}&t=${captured}`, {
        method: "POST", headers: { "Content-Type": "image/jpeg", Accept: "application/json" }, body: blob });
    } catch (error) {
      status(t("err.network"), "error");
      await sleep(1000);
      return;
    }
    const data = await response.json().catch(() => ({}));
    if (response.status === 429) { await sleep(500); return; }
    if (!response.ok) {
      status(t("err.refused", { reason: data.error || response.status }), "error");
      await sleep(1000);
      return;
    }
    answer(data);
  }

  // the state and camera report the server sends after a frame or a choice
  function answer(data) {
    const camera = data.camera;
    Table.show(data);
    const shown = Date.now();
    camera.landed.forEach((l) => window.cameraLog.push({ card: l.card, captured: l.captured, shown }));
    if (camera.refused.length) refused(camera.refused[0]);
    status(t(`cam.status_${camera.status}`, { card: camera.top || "" }));
    const c = camera.choose;
    if (c && !answered.has(c.id) && (!choice || choice.id !== c.id)) {
      ask(t("cam.which"), c.candidates, (picked) => confirm(c.id, picked), c.id);
    }
  }

  // the card the camera saw, which the rules do not allow next
  function refused(r) {
    Table.message(t("cam.refused", { card: r.card, reason: r.reason }), "warn");
  }

  async function confirm(id, picked) {
    answered.add(id);  // a frame's answer may still offer it while this one is on its way
    try {
      const response = await fetch(panel.dataset.confirm, {
        method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ device, id, card: picked }) });
      const data = await response.json();
      if (response.ok) answer(data);
      else Table.message(t("err.refused", { reason: data.error }), "error");
    } catch (error) {
      Table.message(t("err.network"), "error");
    }
  }

  // the one-tap chooser ----------------------------------------------------------------

  // `options`: the candidates, likeliest first; "something else" opens the pad in their place
  function ask(title, options, pick, id = null) {
    choice = { id, title, options: [...new Set(options.filter(Boolean))], pick, pad: false };
    draw();
  }

  function chosen(picked) {
    const open = choice;
    choice = null;
    draw();
    if (open) open.pick(picked);
  }

  // photos and video files ---------------------------------------------------------------

  // the server's answer, or null when there is none (the status line says why);
  // `sent(fraction)` follows the upload. XMLHttpRequest rather than fetch: only
  // it reports how much of a request's body has gone.
  function upload(url, file, type, sent = () => {}) {
    return new Promise((resolve) => {
      const request = new XMLHttpRequest();
      request.open("POST", url);
      request.setRequestHeader("Content-Type", type);
      request.setRequestHeader("Accept", "application/json");
      request.upload.addEventListener("progress", (event) => {
        if (event.lengthComputable) sent(event.loaded / event.total);
      });
      request.upload.addEventListener("load", () => sent(1));
      request.addEventListener("load", () => {
        let data = {};
        try { data = JSON.parse(request.responseText); } catch (error) { /* the status says enough */ }
        if (request.status === 200) { resolve(data); return; }
        status(t("err.refused", { reason: data.error || request.status }), "error");
        resolve(null);
      });
      const failed = () => { status(t("err.network"), "error"); resolve(null); };
      request.addEventListener("error", failed);
      request.addEventListener("abort", failed);
      request.send(file);
    });
  }

  async function photo(file) {
    const type = /^image\/(jpeg|png)$/.test(file.type) ? file.type : "image/jpeg";
    status(t("cam.reading"));
    const data = await upload(panel.dataset.photo, file, type);
    if (!data) return;
    if (data.refused) refused(data.refused);
    if (!data.proposal) { status(t(data.refused ? "cam.photo_seen" : "cam.photo_none"), "warn"); return; }
    if (data.proposal.sure) {  // no question: the reading is sure among the cards that can come
      status(t("cam.photo_taken"));
      Table.tap(data.proposal.card);
      return;
    }
    status(t("cam.photo_seen"));
    ask(t("cam.which"), data.proposal.candidates, (picked) => {
      if (picked) Table.tap(picked);
    });
  }

  // a long video takes a while to send over a phone's connection, then to read
  async function videoFile(file) {
    const bar = $("cam-upload");
    let said = null;
    const sent = (fraction) => {
      bar.value = fraction;
      // in steps of ten: the status line is read out, and every progress event would be too many
      const step = fraction >= 1 ? "reading" : Math.floor(fraction * 10) * 10;
      if (step === said) return;
      said = step;
      status(step === "reading" ? t("cam.video_reading") : t("cam.uploading", { percent: step }));
    };
    bar.hidden = false;
    sent(0);
    const data = await upload(panel.dataset.video, file, file.type || "application/octet-stream", sent);
    bar.hidden = true;
    if (data) play(data.cards);
  }

  // the demo plays from its start on a new demo game; a page reloaded part way offers to go on
  async function demo() {
    const done = demoDone();
    status(t("cam.demo_reading"));
    let cards;
    try {
      const response = await fetch(panel.dataset.sample, { headers: { Accept: "application/json" } });
      const data = await response.json();
      if (!response.ok) { status(t("err.refused", { reason: data.error }), "error"); return; }
      cards = data.cards;
    } catch (error) {
      status(t("err.network"), "error");
      return;
    }
    if (done === 0) { play(cards, 0, true); return; }
    if (done >= cards.length) { status(t("cam.video_done")); return; }
    status(t("cam.demo_stopped", { n: done, total: cards.length }));
    const resume = $("cam-demo-resume");
    resume.hidden = false;
    resume.onclick = () => { resume.hidden = true; play(cards, done, true); };
  }

  // a video's cards revealed one by one through the ordinary API, from card `first`
  function play(cards, first = 0, isDemo = false) {
    if (!cards.length) { status(t("cam.video_none"), "warn"); return; }
    sequence = { cards, next: first, demo: isDemo };
    draw();
    setTimeout(step, SEQUENCE_STEP_MS);
  }

  // how far the demo got: the next card to reveal, and (while one is on its way) the cards
  // revealed before it, so a reload before its answer knows from the game whether it landed
  function demoDone() {
    let kept = null;
    try { kept = JSON.parse(localStorage.getItem(demoKey)); } catch (error) { kept = null; }
    const revealed = Table.state().timeline.length;
    if (!kept) return revealed;  // another device's demo: every card so far came from the video
    return kept.sending && revealed > kept.before ? kept.next + 1 : kept.next;
  }

  function keepProgress(sending) {
    if (!sequence.demo) return;
    localStorage.setItem(demoKey, JSON.stringify(
      { next: sequence.next, sending, before: Table.state().timeline.length }));
  }

  function advance() {
    sequence.next += 1;
    keepProgress(false);
  }

  async function step() {
    if (!sequence) return;
    const state = Table.state();
    if (sequence.next >= sequence.cards.length || state.phase !== "evaluating") {
      sequence = null;
      status(t("cam.video_done"));
      draw();
      return;
    }
    if (state.pending || choice || Table.busy()) { setTimeout(step, 250); return; }  // the owner decides first
    const entry = sequence.cards[sequence.next];
    status(t("cam.video_progress", { n: sequence.next + 1, total: sequence.cards.length }));
    if (entry.refused) {  // none of its readings can come next: skipped, saying why
      refused({ card: entry.card, reason: entry.refused });
      advance();
      setTimeout(step, SEQUENCE_STEP_MS);
      return;
    }
    if (!entry.sure) {
      ask(t("cam.which"), entry.candidates, (picked) => {
        advance();
        if (picked) Table.tap(picked);  // the next step waits for it to land
        setTimeout(step, SEQUENCE_STEP_MS);
      });
      return;
    }
    keepProgress(true);
    const result = await Table.act("reveal", { card: entry.card });
    if (result === "busy") { setTimeout(step, 250); return; }
    advance();  // a card the rules refuse is skipped; the message says why
    setTimeout(step, SEQUENCE_STEP_MS);
  }

  // drawing ----------------------------------------------------------------------------

  function draw(state = Table.state()) {
    const evaluating = state.phase === "evaluating";
    panel.hidden = !evaluating;
    if (!evaluating && running) stop();
    $("cam-start").hidden = running;
    $("cam-stop").hidden = !running;
    $("cam-start").disabled = Boolean(sequence);
    const box = $("cam-choose");
    box.hidden = !choice;
    const html = choice ? (choice.pad ? padHtml(state) : candidatesHtml()) : "";
    // a button replaced between press and release would swallow the tap: redraw only what changed
    if (html !== chooserDrawn) box.innerHTML = chooserDrawn = html;
  }

  function candidatesHtml() {
    return `<h3>${esc(choice.title)}</h3>`
      + (choice.options.length > 1 ? `<p class="muted">${esc(t("cam.likeliest"))}</p>` : "")
      + '<div class="cam-options">'
      + choice.options.map((c) => `<button type="button" class="button cam-option" data-card="${esc(c)}">${card(c)}</button>`).join("")
      + `<button type="button" class="button cam-option cam-else">${esc(t("cam.something_else"))}</button></div>`;
  }

  // the manual-entry pad, for a card the camera did not offer
  function padHtml(state) {
    const groups = state.players.map((p) => ({ color: p.color, title: t("game.pad_orders", { name: p.name }) }));
    const cards = [...Cards.ingredientCards(state.doubled), ...state.players.flatMap((p) => p.revealable)];
    return `<h3>${esc(t("cam.pick_on_pad"))}</h3><div class="cam-pad">${Cards.pad(cards, { groups })}</div>`
      + `<div class="actions"><button type="button" class="button cam-skip">${esc(t("cam.not_a_card"))}</button></div>`;
  }

  function onChooserTap(event) {
    const button = event.target.closest("button");
    if (!button || !choice) return;
    if (button.classList.contains("cam-else")) {
      choice.pad = true;
      draw();
    } else if (button.classList.contains("cam-skip")) {
      chosen(null);
    } else if (button.dataset.card) {
      chosen(button.dataset.card);
    }
  }

  function status(text, kind = "info") {
    const line = $("cam-status");
    line.textContent = text;
    line.className = `cam-status ${kind}`;
  }

  function deviceId() {
    const bytes = crypto.getRandomValues(new Uint8Array(9));
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  // wiring ------------------------------------------------------------------------------

  $("cam-choose").addEventListener("click", onChooserTap);
  $("cam-start").addEventListener("click", start);
  $("cam-stop").addEventListener("click", stop);
  $("cam-photo").addEventListener("change", (event) => {
    const file = event.target.files[0];
    event.target.value = "";
    if (file) photo(file);
  });
  $("cam-video-file").addEventListener("change", (event) => {
    const file = event.target.files[0];
    event.target.value = "";
    if (file) videoFile(file);
  });
  Table.onRender(draw);
  status(t("cam.idle"));
  if (panel.dataset.demo === "1") demo();
})();
