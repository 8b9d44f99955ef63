// The host's projector screen: the current number big, the history, how many
// have placed it, and the live ranking; at the end the winning boards. G draws
// (the host's own connection).

import { el } from "../../js/kit/dom.js";
import { gettext, interpolate, ngettext } from "../../js/kit/i18n.js";
import { watchHostSession } from "../../js/kit/signedout.js";
import { RoomSocket } from "../../js/kit/socket.js";
import { onDrawKey } from "../common.js";
import { JOKER } from "../deck.js";
import { RoomFx } from "./fx.js";
import { miniBoard } from "./ranking.js";

const root = document.getElementById("pr-projector");
const POLL_MS = 1500;

function cardText(card) {
  return card === JOKER ? "★" : String(card);
}

if (root) {
  /** @type {(name: string) => HTMLElement} */
  const q = (name) => root.querySelector(`[data-pr-${name}]`);
  const socket = new RoomSocket(root.dataset.code);
  let sequence = [];
  let status = "lobby";
  let following = false;
  let closed = false;
  // A whole class hears the projector: sound and motion start switched off here.
  const fx = new RoomFx(q("fx"), { key: "matika-poker-projector-fx", on: false });

  const render = () => {
    const last = sequence.length ? sequence[sequence.length - 1] : null;
    const current = q("current");
    current.textContent = last === null ? "–" : cardText(last);
    current.classList.toggle("is-joker", last === JOKER);
    q("history").replaceChildren(...sequence.map((card) => el("li", { text: cardText(card) })));
    const texts = {
      lobby: gettext("Join with the code or the QR code: the game starts soon."),
      running: closed ? gettext("All numbers are out: no more will come.") : "",
      finished: gettext("The game is over."),
      expired: gettext("This room has expired."),
    };
    q("status").textContent = texts[status] || "";
    // After the game (and before it) there is no current number and nothing to draw.
    const running = status === "running";
    q("current-box").hidden = !running;
    q("keys").hidden = !running || closed;
    q("placed").hidden = !running;
  };

  /** The next round or a replacing lobby: the projector follows like every phone. */
  const follow = (code) => {
    if (!code || following) return;
    following = true;
    window.location.assign(`/poker/room/${encodeURIComponent(code)}/projector/`);
  };

  /** The lobby: how many have joined, and who (the room's screen, read from afar). */
  const renderJoined = (names) => {
    const box = q("joined-box");
    box.hidden = status !== "lobby";
    q("joined-count").textContent = interpolate(
      ngettext("%(count)s player has joined", "%(count)s players have joined", names.length),
      { count: names.length },
    );
    q("joined").replaceChildren(...names.map((name) => el("li", { text: name })));
  };

  /** After the game: the first three places on a podium (second, first, third). */
  const renderPodium = (ranking) => {
    const podium = q("podium");
    const top = ranking.filter((entry) => entry.rank <= 3 && !entry.gone).slice(0, 3);
    podium.hidden = status !== "finished" || top.length === 0;
    const order = [top[1], top[0], top[2]].filter(Boolean);
    podium.replaceChildren(
      ...order.map((entry) =>
        el("li", { className: `pr-podium-step pr-podium-${entry.rank}`, attrs: { "data-rank": entry.rank } }, [
          el("span", { className: "pr-podium-name", text: entry.nickname }),
          el("span", { className: "pr-podium-score", text: interpolate(gettext("%(points)s points"), { points: entry.score }) }),
          el("span", { className: "pr-podium-rank", text: `${entry.rank}.` }),
        ]),
      ),
    );
  };

  const renderStandings = (data) => {
    if (data.status) status = data.status;
    if (data.next_room) follow(data.next_room);
    if (data.players) renderJoined(data.players);
    else q("joined-box").hidden = true;
    if (data.sequence) sequence = data.sequence;
    if (typeof data.total === "number") {
      q("placed").textContent = interpolate(
        ngettext(
          "%(count)s of %(total)s has placed the number",
          "%(count)s of %(total)s have placed the number",
          data.placed_current,
        ),
        { count: data.placed_current, total: data.total },
      );
    }
    if (data.ranking) {
      q("ranking").replaceChildren(
        ...data.ranking.slice(0, 50).map((entry) => {
          const item = el("li", {}, [
            el("span", { className: "pr-rank", text: `${entry.rank}.` }),
            el("span", { className: "pr-name", text: entry.nickname }),
            el("span", { className: "pr-score", text: String(entry.score) }),
          ]);
          if (entry.gone === "left") item.append(" ", el("span", { className: "badge", text: gettext("left the game") }));
          // The boards come with the final standings: the winners' boards are shown.
          if (entry.rank === 1 && entry.cells) item.append(miniBoard(entry));
          return item;
        }),
      );
      renderPodium(data.ranking);
    }
    render();
  };

  let pollTimer = null;
  let signedOut = false;
  const poll = async () => {
    if (pollTimer) window.clearTimeout(pollTimer);
    if (signedOut) return;
    try {
      const response = await fetch(root.dataset.standings, { credentials: "same-origin" });
      if (response.ok) renderStandings(await response.json());
    } catch (error) {
      /* try again */
    }
    if (status !== "expired" && !signedOut) pollTimer = window.setTimeout(poll, POLL_MS);
  };

  socket.addEventListener("sync", (event) => {
    const { room, view } = /** @type {CustomEvent} */ (event).detail;
    status = room.status;
    if (view && view.sequence) {
      sequence = [...view.sequence];
      closed = view.closed;
    }
    render();
  });
  socket.addEventListener("event", (event) => {
    let drawnNow = false;
    let endedNow = false;
    for (const change of /** @type {CustomEvent} */ (event).detail.events) {
      if (change.type === "drawn") {
        if (change.index === sequence.length) sequence.push(change.card);
        closed = change.closed;
        poll();
        drawnNow = true;
      } else if (change.type === "next_round" || change.type === "rematch") {
        follow(change.code);
      } else if (change.type === "started") {
        status = "running";
        q("joined-box").hidden = true;
      }
      else if (change.type === "finished") {
        status = "finished";
        endedNow = true;
        poll();
      }
    }
    render();
    if (drawnNow) fx.drawn(q("current"));
    if (endedNow) fx.ended(q("ranking"));
  });

  onDrawKey(() => {
    if (status !== "running" || closed) return;
    socket.send({ type: "draw" }).catch((error) => {
      q("status").textContent = error.message || error.code;
    });
  });

  // The teacher's login ended (another tab, the idle timeout...): the socket is
  // closed; the pupils' names and the drawing key go with it, a notice says why.
  watchHostSession(socket, root.parentElement, {
    onEnded: () => {
      signedOut = true;
      if (pollTimer) window.clearTimeout(pollTimer);
      q("ranking").replaceChildren();
      root.hidden = true;
    },
  });

  socket.connect();
  poll();
}
