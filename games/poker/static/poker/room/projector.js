// The host's projector screen: the current number big, the history, how many
// have placed it, and the live ranking. G draws (the host's own connection).

import { RoomSocket } from "../../js/kit/socket.js";
import { gettext, tf } from "../common.js";
import { JOKER } from "../deck.js";

const root = document.getElementById("pr-projector");
const POLL_MS = 1500;

function cardText(card) {
  return card === JOKER ? "★" : String(card);
}

if (root) {
  const q = (name) => root.querySelector(`[data-pr-${name}]`);
  const socket = new RoomSocket(root.dataset.code);
  let sequence = [];
  let status = "lobby";
  let closed = false;

  const render = () => {
    const last = sequence.length ? sequence[sequence.length - 1] : null;
    const current = q("current");
    current.textContent = last === null ? "–" : cardText(last);
    current.classList.toggle("is-joker", last === JOKER);
    q("history").replaceChildren(
      ...sequence.map((card) => {
        const item = document.createElement("li");
        item.textContent = cardText(card);
        return item;
      }),
    );
    const texts = {
      lobby: gettext("Waiting for the host to start the game."),
      running: closed ? gettext("All numbers are out: no more will come.") : "",
      finished: gettext("The game is over."),
      expired: gettext("This room has expired."),
    };
    q("status").textContent = texts[status] || "";
  };

  const renderStandings = (data) => {
    if (data.status) status = data.status;
    if (data.sequence) sequence = data.sequence;
    if (typeof data.total === "number") {
      q("placed").textContent = tf(gettext("%(count)s of %(total)s have placed the number"), {
        count: data.placed_current,
        total: data.total,
      });
    }
    if (data.ranking) {
      q("ranking").replaceChildren(
        ...data.ranking.slice(0, 50).map((entry) => {
          const item = document.createElement("li");
          const rank = document.createElement("span");
          rank.className = "pr-rank";
          rank.textContent = `${entry.rank}.`;
          const name = document.createElement("span");
          name.className = "pr-name";
          name.textContent = entry.nickname;
          const score = document.createElement("span");
          score.className = "pr-score";
          score.textContent = String(entry.score);
          item.append(rank, " ", name, " ", score);
          return item;
        }),
      );
    }
    render();
  };

  let pollTimer = null;
  const poll = async () => {
    if (pollTimer) window.clearTimeout(pollTimer);
    try {
      const response = await fetch(root.dataset.standings, { credentials: "same-origin" });
      if (response.ok) renderStandings(await response.json());
    } catch (error) {
      /* try again */
    }
    if (status !== "expired") pollTimer = window.setTimeout(poll, POLL_MS);
  };

  socket.addEventListener("sync", (event) => {
    const { room, view } = event.detail;
    status = room.status;
    if (view && view.sequence) {
      sequence = [...view.sequence];
      closed = view.closed;
    }
    render();
  });
  socket.addEventListener("event", (event) => {
    for (const change of event.detail.events) {
      if (change.type === "drawn") {
        if (change.index === sequence.length) sequence.push(change.card);
        closed = change.closed;
        poll();
      } else if (change.type === "started") status = "running";
      else if (change.type === "finished") status = "finished";
    }
    render();
  });

  document.addEventListener("keydown", (event) => {
    if (event.key !== "g" && event.key !== "G") return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (status !== "running" || closed) return;
    event.preventDefault();
    socket.send({ type: "draw" }).catch((error) => {
      q("status").textContent = error.message || error.code;
    });
  });

  socket.connect();
  poll();
}
