// The teaching page: a deck is taught one face at a time. Each picture (a
// frame of the live camera once the card lies still, or each chosen photo in
// turn) goes to the deck API without a card; its straightened face comes back
// with suggestions and waits beside the pad of cards still missing, the
// likeliest card highlighted, until a tap names it. A poor picture is refused
// with the reason and what to do. Once every face is taught: make the deck the
// camera's, then try it with the same camera or photos. A Maus au Chocolat
// deck is taught the same way; its faces and pad are drawn by MausFaces, and
// trying it reads the laid row of cards.
"use strict";

(() => {
  const root = document.getElementById("teach");
  const { t, esc } = Cards;
  const $ = (id) => document.getElementById(id);
  Cards.setCatalog(JSON.parse($("catalog-data").textContent));
  const STILL_MS = 500;             // a card lying still this long is photographed
  const LOOK_INTERVAL_MS = 100;
  const CAPTURE_SIZE = [1920, 1080]; // asked of the camera: the face is straightened from the whole frame
  const JPEG_QUALITY = 0.92;
  const KEPT = 6;                   // notes and readings shown, the newest first
  const ALIKE_SHOWN = 4;            // of the faces alike to one just taught; the rest are counted
  const COLORS = Object.values(Cards.COLORS);

  let deck = JSON.parse($("deck-data").textContent);
  const maus = deck.game === "maus";
  const card = maus ? MausFaces.card : Cards.card;
  let held = null;       // the picture waiting for its card: {capture, face, suggestions, source}
  let retaking = null;   // the card whose face was just removed: highlighted while it is missing
  let asked = null;      // the taught face the player tapped, asked whether to retake it
  let busy = false;      // a request under way
  let running = false;   // the live camera
  const photos = [];     // chosen files still to read
  let chosen = 0;        // how many files were chosen in all

  const teaching = () => deck.missing.length > 0;
  // a complete Maus deck is tried with itself; a Mamma Mia! one through the camera, once it uses the deck
  const canTry = () => maus || deck.active;

  // talking to the API -------------------------------------------------------------------

  /** {ok, status, data}; status 0 when the server could not be reached. */
  async function call(url, options = {}) {
    try {
      const response = await fetch(url, { ...options, headers: { Accept: "application/json", ...options.headers } });
      return { ok: response.ok, status: response.status, data: await response.json().catch(() => ({})) };
    } catch (error) {
      return { ok: false, status: 0, data: {} };
    }
  }

  function postJson(body) {
    return { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  }

  function postPicture(blob) {
    const type = /^image\/(jpeg|png)$/.test(blob.type) ? blob.type : "image/jpeg";
    return { method: "POST", headers: { "Content-Type": type }, body: blob };
  }

  /** A picture refused (422) says why and what to do: the live camera's as the latest step, a
   * chosen photo's as a note that stays with the file's name; anything else is a message. */
  function refused(result, source) {
    if (result.status === 422 && result.data.problem) {
      const { problem, error, hint } = result.data;
      const text = `${named(source)}<b>${esc(words(`teach.problem_${problem}`, error))}</b> `
        + esc(words(`teach.hint_${problem}`, hint));
      if (source) note("refused", text, problem); else step("refused", text, problem);
    } else {
      Cards.say($("message"), Cards.refusal(result.status, result.data, root.dataset.join), "error", true);
    }
  }

  async function reload() {
    const result = await call(root.dataset.deck);
    if (result.ok) deck = result.data;
  }

  // teaching --------------------------------------------------------------------------

  /** Sends a picture to be taught: its face waits for its card, or the page says why it was refused. */
  async function offer(blob, source = null) {
    busy = true;
    const result = await call(root.dataset.faces, postPicture(blob));
    busy = false;
    if (result.ok) {
      held = { ...result.data, source };
      step(null);
      Cards.say($("message"), null);
    } else {
      refused(result, source);
    }
    render();
    if (held) $("capture").scrollIntoView({ block: "nearest" });
  }

  async function name(notation) {
    if (!held || busy) return;
    busy = true;
    render();
    const result = await call(root.dataset.faces, postJson({ capture: held.capture, card: notation }));
    busy = false;
    if (result.ok) {
      held = null;
      if (retaking === notation) retaking = null;
      Cards.say($("message"), null);
      taught(result.data);
      await reload();
    } else {
      if (result.status === 404 && result.data.field === "capture") held = null;  // gone: take it again
      refused(result, null);
    }
    render();
    nextPhoto();
  }

  function taught(answer) {
    step("taught", `${esc(t("teach.taught_note"))} ${card(answer.card)}`);
    const alike = answer.similar;  // the most alike first
    if (!alike.length) return;
    const more = alike.length - ALIKE_SHOWN;
    const where = words(`teach.where_${alike[0].where.replace(/^the /, "")}`, alike[0].where);
    note("similar", `<b>${esc(t("teach.similar_title"))}</b> ${card(answer.card)} ≈ `
      + alike.slice(0, ALIKE_SHOWN).map((like) => card(like.card)).join(" ")
      + (more > 0 ? ` ${esc(t("teach.similar_more", { n: more }))}` : "") + ` ${esc(t("teach.similar_where", { where }))}`);
  }

  function skip() {
    held = null;
    render();
    nextPhoto();
  }

  async function retake(notation) {
    asked = null;
    busy = true;
    const result = await call(`${root.dataset.faces}/${encodeURIComponent(notation)}`, { method: "DELETE" });
    busy = false;
    if (result.ok) {
      retaking = notation;
      await reload();
      step("retake", `${esc(t("teach.retaking"))} ${card(notation)}`);
    } else {
      refused(result, null);
    }
    render();
  }

  // trying the deck out -----------------------------------------------------------------

  async function use() {
    busy = true;
    render();
    const result = await call(root.dataset.activate, { method: "POST" });
    busy = false;
    if (result.ok) await reload(); else refused(result, null);
    render();
  }

  async function read(blob, source = null) {
    busy = true;
    const result = await call(root.dataset.photo, postPicture(blob));
    busy = false;
    if (!result.ok) refused(result, source);
    else if (maus) row(result.data, source);
    else reading(result.data.proposal, source);
    render();
  }

  /** A Maus deck tried: the cards read left to right, each sure or not. */
  function row(answer, source) {
    const cards = answer.cards.map((c) => `${card(c.card)} <span class="${c.sure ? "sure" : "unsure"}">`
      + `${esc(t(c.sure ? "teach.reads_sure" : "teach.maus_unsure"))}</span>`).join(" ");
    keep($("readings"), `<li class="reading" data-cards="${esc(answer.notation)}" data-sure="${answer.sure}">`
      + `${named(source)}${answer.cards.length ? `${esc(t("teach.reads"))} ${cards}` : esc(t("teach.maus_none"))}</li>`);
  }

  function reading(proposal, source) {
    let text = esc(t("teach.reads_none"));
    if (proposal) {
      text = `${esc(t("teach.reads"))} ${card(proposal.card)} ` + (proposal.sure
        ? `<span class="sure">${esc(t("teach.reads_sure"))}</span>`
        : `<span class="unsure">${esc(t("teach.reads_unsure"))}</span> ${proposal.runner_up ? card(proposal.runner_up) : ""}`);
    }
    keep($("readings"), `<li class="reading" data-card="${esc(proposal ? proposal.card : "")}" `
      + `data-sure="${proposal ? proposal.sure : false}">${named(source)}${text}</li>`);
  }

  // pictures: the live camera and chosen photos -------------------------------------------

  async function start() {
    const started = await LiveCamera.start($("cam-video"), CAPTURE_SIZE);
    if (started !== "ok") {
      status(t(`teach.${started}`), "warn");
      return;
    }
    running = true;
    render();
    watch();
  }

  function stop() {
    running = false;
    LiveCamera.stop($("cam-video"));
    render();
  }

  /** Photographs each card once it lies still, while nothing else waits. */
  async function watch() {
    const video = $("cam-video");
    const still = LiveCamera.stillness(video, STILL_MS);
    const canvas = document.createElement("canvas");
    while (running) {
      const free = !busy && !held && !photos.length && (teaching() || canTry());
      if (still.look() && free) {
        still.taken();
        busy = true;  // from now: a photo chosen meanwhile waits its turn
        LiveCamera.grab(video, canvas);
        const blob = await LiveCamera.jpeg(canvas, JPEG_QUALITY);
        status(t(teaching() ? "teach.status_taking" : "cam.status_reading"));
        if (teaching()) await offer(blob); else await read(blob);
        nextPhoto();  // any chosen while this picture was read
      }
      await LiveCamera.sleep(LOOK_INTERVAL_MS);
    }
  }

  /** The next chosen photo, once nothing waits for a tap. */
  async function nextPhoto() {
    while (!busy && !held && photos.length) {
      if (!teaching() && !canTry()) { photos.length = 0; break; }  // complete: nothing to read it with yet
      const file = photos.shift();
      status(t("teach.status_photo", { n: chosen - photos.length, total: chosen }));
      if (teaching()) await offer(file, file.name); else await read(file, file.name);
    }
    if (!photos.length && !held) {
      if (chosen) status(t("teach.status_photos_done"));
      chosen = 0;
    }
  }

  // drawing ------------------------------------------------------------------------------

  function render() {
    const complete = !teaching();
    $("progress").textContent = t("cards.progress", { n: deck.faces, total: deck.total });
    Object.assign($("progress-bar"), { max: deck.total, value: deck.faces });
    $("camera-title").textContent = t(complete ? "teach.try_title" : "teach.camera_title");
    $("camera-explain").textContent = t(!complete ? "teach.camera_explain" : !canTry() ? "teach.try_first"
      : maus ? "teach.maus_try_explain" : "teach.try_explain");
    $("readings").hidden = !complete;
    $("done").hidden = !complete;
    $("done-use").hidden = deck.active;
    $("done-active").hidden = !deck.active;
    $("use").disabled = busy;
    $("cam-start").hidden = running;
    $("cam-stop").hidden = !running;
    $("pad").hidden = complete;
    renderCapture();
    const locked = !held || busy;
    const marked = held ? likeliest() : null;
    $("pad-keys").innerHTML = maus ? MausFaces.pad(deck.missing, { locked, marked }) : Cards.pad(deck.missing, {
      groups: COLORS.map((color) => ({ color, title: t("teach.pad_orders", { color: t(`color.${color}`) }) })),
      locked, marked });
    $("pad-idle").hidden = Boolean(held);
    renderTaught();
    if (held) status(t("teach.capture_title"));
    else if (!busy && !photos.length) status(t(!running ? "cam.idle" : complete ? "teach.try_watching" : "teach.status_watching"));
  }

  // the card a tap most likely means: one just removed to be retaken, else the server's suggestion
  function likeliest() {
    if (retaking && deck.missing.includes(retaking)) return retaking;
    const suggested = held.suggestions.find((s) => !s.taught);
    return suggested ? suggested.card : null;
  }

  function renderCapture() {
    const box = $("capture");
    box.hidden = !held;
    if (!held) return;
    $("capture-face").src = held.face;
    const again = held.suggestions.find((s) => s.taught);
    $("capture-advice").innerHTML = (held.source ? `<p class="source">${esc(held.source)}</p>` : "")
      + (again ? `<p class="again">${esc(t("teach.looks_taught"))} ${card(again.card)}</p>` : "")
      + `<p>${esc(t(likeliest() ? "teach.suggested" : "teach.pick"))}</p>`;
    $("skip").disabled = busy;
  }

  function renderTaught() {
    $("taught").innerHTML = deck.taught.length ? deck.taught.map((face) => `<li><button type="button" class="taught-face" `
      + `data-card="${esc(face.card)}"><img src="${esc(face.image)}" alt="" loading="lazy">${card(face.card)}</button></li>`).join("")
      : `<li class="muted">${esc(t("teach.taught_none"))}</li>`;
    const box = $("retake");
    const face = asked && deck.taught.find((f) => f.card === asked);
    box.hidden = !face;
    if (!face) return;
    box.innerHTML = `<img src="${esc(face.image)}" alt="" class="face"><div><p><b>${esc(t("teach.retake_title"))}</b> `
      + `${card(face.card)}</p><p class="muted">${esc(t("teach.retake_explain"))}</p><div class="actions">`
      + `<button type="button" class="button primary" data-retake="${esc(face.card)}">${esc(t("teach.retake"))}</button>`
      + `<button type="button" class="button" data-keep>${esc(t("teach.keep"))}</button></div></div>`;
  }

  /** The latest step (a face taught, one to lay again, the live camera's refusal); none hides it. */
  function step(kind, html = "", problem = "") {
    const box = $("step");
    box.hidden = !kind;
    box.className = `note ${kind || ""}`;
    box.dataset.problem = problem;
    box.innerHTML = html;
  }

  /** A note that stays: two faces alike, a chosen photo refused. */
  function note(kind, html, problem = "") {
    keep($("notes"), `<li class="note ${kind}" data-problem="${esc(problem)}">${html}</li>`);
  }

  function keep(list, item) {
    list.insertAdjacentHTML("afterbegin", item);
    while (list.children.length > KEPT) list.lastElementChild.remove();
  }

  // the server's words are English: the page's own, when its catalog has them
  function words(key, english) {
    const text = t(key);
    return text === key ? english : text;
  }

  function named(source) {
    return source ? `<b class="source">${esc(source)}</b>: ` : "";
  }

  function status(text, kind = "info") {
    const line = $("cam-status");
    line.textContent = text;
    line.className = `cam-status ${kind}`;
  }

  // wiring -------------------------------------------------------------------------------

  Cards.onPadTap($("pad-keys"), name);
  $("skip").addEventListener("click", skip);
  $("use").addEventListener("click", use);
  $("cam-start").addEventListener("click", start);
  $("cam-stop").addEventListener("click", stop);
  $("photos").addEventListener("change", (event) => {
    const files = [...event.target.files];
    event.target.value = "";
    photos.push(...files);
    chosen += files.length;
    nextPhoto();
  });
  $("taught").addEventListener("click", (event) => {
    const face = event.target.closest("button[data-card]");
    if (!face || busy) return;
    asked = face.dataset.card;
    render();
    $("retake").scrollIntoView({ block: "nearest" });
  });
  $("retake").addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button) return;
    if (button.dataset.retake) retake(button.dataset.retake);
    else { asked = null; render(); }
  });
  render();
})();
