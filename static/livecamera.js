// The device's camera in a <video>, for the round page's camera panel and the
// teaching page: starting and stopping it, grabbing a frame as a JPEG, and
// noticing when the picture has come to rest after something moved.
"use strict";

const LiveCamera = (() => {
  const STILL_WIDTH = 96;       // frames are compared this small: noise and JPEG blocks average out
  const PIXEL_CHANGE = 24;      // a pixel changed when a channel moved this much (0..255)
  const MOVING_SHARE = 0.01;    // the picture moves when this share of its pixels changed

  /** Starts the rear camera in `video`: "ok", or why not: "unavailable"
   * (no camera API, as over plain HTTP) or "denied" (refused, or in use). */
  async function start(video, size = null) {
    if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) return "unavailable";
    const wanted = { facingMode: "environment" };
    if (size) Object.assign(wanted, { width: { ideal: size[0] }, height: { ideal: size[1] } });
    try {
      video.srcObject = await navigator.mediaDevices.getUserMedia({ video: wanted, audio: false });
    } catch (error) {
      return "denied";
    }
    await video.play().catch(() => {});
    video.hidden = false;
    return "ok";
  }

  function stop(video) {
    if (video.srcObject) video.srcObject.getTracks().forEach((track) => track.stop());
    video.srcObject = null;
    video.hidden = true;
  }

  /** The video's current picture on `canvas`, `width` pixels wide (its own size without one). */
  function grab(video, canvas, width = video.videoWidth) {
    canvas.width = width;
    canvas.height = Math.round(width * video.videoHeight / video.videoWidth);
    const context = canvas.getContext("2d", { willReadFrequently: width <= STILL_WIDTH });
    context.drawImage(video, 0, 0, canvas.width, canvas.height);
    return context;
  }

  function jpeg(canvas, quality = 0.8) {
    return new Promise((done) => canvas.toBlob(done, "image/jpeg", quality));
  }

  /** Watches `video` for a picture at rest: `look()` is true once nothing
   * has moved for `stillMs`, until `taken()` says the picture was used; only
   * a new movement makes it true again, so a picture that stays as it is is
   * used once. */
  function stillness(video, stillMs) {
    const canvas = document.createElement("canvas");
    let rest = null;  // the picture since the last movement: a slow drift adds up against it
    let lastMove = Date.now();
    let armed = true;

    function moved(pixels) {
      if (!rest || rest.length !== pixels.length) return true;
      let changed = 0;
      for (let i = 0; i < pixels.length; i += 4) {
        if (Math.abs(pixels[i] - rest[i]) > PIXEL_CHANGE || Math.abs(pixels[i + 1] - rest[i + 1]) > PIXEL_CHANGE
          || Math.abs(pixels[i + 2] - rest[i + 2]) > PIXEL_CHANGE) changed += 1;
      }
      return changed > MOVING_SHARE * (pixels.length / 4);
    }

    return {
      look() {
        if (!video.videoWidth) return false;
        const context = grab(video, canvas, STILL_WIDTH);
        const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
        if (moved(pixels)) {
          rest = pixels;
          lastMove = Date.now();
          armed = true;
        }
        return armed && Date.now() - lastMove >= stillMs;
      },
      taken() { armed = false; },
    };
  }

  function sleep(ms) { return new Promise((done) => setTimeout(done, ms)); }

  return { start, stop, grab, jpeg, stillness, sleep };
})();
