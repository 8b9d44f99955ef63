// @ts-check
// The server leads a solo game: every action is one POST to the game's API.

import { gettext } from "../../js/kit/i18n.js";

/** The API refused: a stable code and a human message (maybe with the game). */
export class Refusal extends Error {
  constructor(code, message, payload) {
    super(message);
    this.code = code;
    this.payload = payload;
  }
}

/** The server leads: every action is one POST; the answer is the new view. */
export class ServerDriver {
  constructor(api, csrf) {
    this.api = api;
    this.csrf = csrf;
    this.recorded = true;
    this.id = null;
  }

  async request(url, body) {
    let response;
    try {
      response = await fetch(url, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": this.csrf, Accept: "application/json" },
        body: JSON.stringify(body),
      });
    } catch (error) {
      throw new Refusal("offline", gettext("The server cannot be reached."));
    }
    let payload = null;
    try {
      payload = await response.json();
    } catch (error) {
      payload = null;
    }
    if (!payload || typeof payload !== "object") {
      throw new Refusal("offline", gettext("The server cannot be reached."));
    }
    if (!response.ok) throw new Refusal(payload.code, payload.message, payload);
    return payload;
  }

  async start(settings) {
    const payload = await this.request(this.api, {
      mode: settings.kind || settings.mode,
      difficulty: settings.mode,
      table: settings.table,
      seconds_per_card: settings.mode === "hard" ? settings.seconds : null,
      replay: Boolean(settings.replay),
      level: settings.level || null,
      assignment: settings.assignment || null,
    });
    this.id = payload.game.id;
    return payload;
  }

  act(action) {
    return this.request(`${this.api}${this.id}/actions/`, action);
  }

  /** Pick up a game this tab started before a reload. */
  async resume(id) {
    this.id = id;
    let response;
    try {
      response = await fetch(`${this.api}${id}/`, { credentials: "same-origin", headers: { Accept: "application/json" } });
    } catch (error) {
      return null;
    }
    return response.ok ? response.json() : null;
  }
}
