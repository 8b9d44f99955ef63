// Sound and motion in poker rooms: a short tone and a small "pop" of the number
// when a number is drawn, a little tune and a pop at the end.
//
// The tones are generated with WebAudio (no audio files). A toggle switches
// both on or off and is remembered per screen in localStorage; the projector
// starts with them off (a whole class hears it), the players' boards on. With
// `prefers-reduced-motion: reduce` nothing moves (the sound still follows the
// toggle). Browsers only let a page make sound after a click or a key press,
// so the audio context is created on the first one.

import { gettext } from "../../js/kit/i18n.js";
import { readStorage, writeStorage } from "../common.js";

const POP = "pr-pop";

function reducedMotion() {
  return Boolean(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

export class RoomFx {
  /**
   * `toggle`: the button that switches sound and motion; `key`: the localStorage key.
   * @param {HTMLElement | null} toggle
   * @param {{ key?: string, on?: boolean }} [options]
   */
  constructor(toggle, { key, on = true } = {}) {
    this.toggle = toggle;
    this.key = key;
    this.on = readStorage(key, on) !== false;
    this.audio = null;
    this.played = 0;
    if (toggle) {
      toggle.hidden = false;
      toggle.addEventListener("click", () => this.set(!this.on));
    }
    this.show();
    const unlock = () => this.context();
    window.addEventListener("pointerdown", unlock, { once: true });
    window.addEventListener("keydown", unlock, { once: true });
  }

  set(on) {
    this.on = on;
    writeStorage(this.key, on);
    this.show();
  }

  show() {
    if (!this.toggle) return;
    this.toggle.setAttribute("aria-pressed", String(this.on));
    this.toggle.textContent = this.on ? gettext("Sound and motion: on") : gettext("Sound and motion: off");
  }

  context() {
    if (this.audio) return this.audio;
    /** @type {typeof AudioContext | undefined} */
    const Context = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!Context) return null;
    try {
      this.audio = new Context();
    } catch (error) {
      this.audio = null;
    }
    return this.audio;
  }

  /** Play tones [[frequency Hz, start s, length s], …]; quietly nothing without audio. */
  tones(notes) {
    if (!this.on) return;
    const audio = this.context();
    this.played += 1;
    if (this.toggle) this.toggle.dataset.played = String(this.played);
    if (!audio) return;
    if (audio.state === "suspended") audio.resume().catch(() => {});
    const start = audio.currentTime + 0.01;
    for (const [frequency, at, length] of notes) {
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.type = "sine";
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start + at);
      gain.gain.exponentialRampToValueAtTime(0.2, start + at + 0.015);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(start + at);
      oscillator.stop(start + at + length + 0.02);
    }
  }

  /** The small animation on `element` (restarted each time), unless motion is reduced. */
  pop(element) {
    if (!element) return;
    element.classList.remove(POP);
    if (!this.on || reducedMotion()) return;
    void element.offsetWidth; // restart the animation
    element.classList.add(POP);
  }

  drawn(element) {
    this.tones([[880, 0, 0.12]]);
    this.pop(element);
  }

  ended(element) {
    this.tones([
      [523, 0, 0.14],
      [659, 0.13, 0.14],
      [784, 0.26, 0.3],
    ]);
    this.pop(element);
  }
}
