// The room page: live list of seats, host controls, connection state.
// Games put their board into [data-room-board] and get the socket with
// `whenRoomReady()` from ./socket.js (one WebSocket per page).
import { confirmDialog } from "../kit/dialog.js";
import { gettext, interpolate, ngettext, pgettext } from "../kit/i18n.js";
import { watchHostSession } from "../kit/signedout.js";
import { RoomSocket } from "../kit/socket.js";

/** @type {(HTMLElement & {roomSocket?: RoomSocket}) | null} */
const root = document.querySelector("[data-room-live]");

if (root) {
  const me = Number(root.dataset.playerId);
  const isHost = root.dataset.host === "true";
  const formal = root.dataset.formal === "true";
  const seatsList = /** @type {HTMLElement} */ (root.querySelector("[data-room-seats]"));
  const countBadge = /** @type {HTMLElement} */ (root.querySelector("[data-room-count]"));
  const connection = /** @type {HTMLElement} */ (root.querySelector("[data-room-connection]"));
  const statusLine = /** @type {HTMLElement} */ (root.querySelector("[data-room-status]"));
  // The start/lock row above the game and the end button below it.
  const controlRows = [.../** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-host-controls]"))];
  const controls = controlRows.length ? root : null;
  const rematchForm = /** @type {HTMLElement | null} */ (root.querySelector("[data-room-rematch]"));
  const layout = document.querySelector("[data-room-layout]");
  const leaveButton = /** @type {HTMLButtonElement | null} */ (root.querySelector("[data-room-leave]"));
  const errorLine = /** @type {HTMLElement} */ (root.querySelector("[data-room-error]"));
  const invite = /** @type {HTMLDetailsElement | null} */ (document.querySelector("[data-room-invite]"));
  const board = /** @type {HTMLElement | null} */ (root.querySelector("[data-room-board]"));
  // A duel starts by itself at the last join; a host who only deals takes no place.
  const autoStart = root.dataset.autoStart === "true";
  const hostCounts = root.dataset.hostCounts !== "false";
  let room = null;
  let role = root.dataset.role;
  let leaving = false;
  // The host of a class game: each pupil's roster name beside the nickname
  // (from the page, then from the class's waiting list as pupils come: classlive.js).
  /** @type {Record<string, string>} */
  const roster = root.dataset.roster ? JSON.parse(root.dataset.roster) : {};
  document.addEventListener("matika:roster", (event) => {
    Object.assign(roster, /** @type {CustomEvent} */ (event).detail);
    if (room) renderSeats();
  });

  function playingCount() {
    return room.seats.filter(
      (seat) => seat.status === "joined" && (seat.role === "player" || (seat.role === "host" && hostCounts)),
    ).length;
  }

  // Every waiting line says who is waited for; the host is never told to wait for the host.
  function lobbyText() {
    if (autoStart) {
      const missing = Math.max(0, room.max_players - playingCount());
      if (missing === 0) return gettext("Everybody is in: the game is starting.");
      return interpolate(
        ngettext(
          "Waiting for %(count)s more player to join: the game then starts by itself.",
          "Waiting for %(count)s more players to join: the game then starts by itself.",
          missing,
        ),
        { count: missing },
      );
    }
    // A teacher (logged in) reads vy, a pupil hosting a class table ty, as every host text.
    if (isHost && formal) {
      return playingCount() === 0
        ? pgettext("addressing a teacher formally", "Waiting for players to join. Start the game when everybody is in.")
        : pgettext("addressing a teacher formally", "Start the game when everybody is in.");
    }
    if (isHost) {
      return playingCount() === 0
        ? gettext("Waiting for players to join. Start the game when everybody is in.")
        : gettext("Start the game when everybody is in.");
    }
    const host = room.seats.find((seat) => seat.role === "host");
    return interpolate(gettext("Waiting for %(nickname)s to start the game."), {
      nickname: host ? host.nickname : "",
    });
  }

  const STATUS_TEXT = {
    lobby: lobbyText,
    running: () => gettext("The game is running."),
    finished: () => gettext("The game is over."),
    expired: () => gettext("This room has expired."),
  };

  function showStatus() {
    if (!room) return;
    let text = STATUS_TEXT[room.status] ? STATUS_TEXT[room.status]() : "";
    if (room.status === "lobby" && room.locked) text += " " + gettext("Joining is locked.");
    statusLine.textContent = text;
    if (controls) {
      const live = room.status === "lobby" || room.status === "running";
      for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ (root.querySelectorAll("[data-room-action]"))) {
        const action = button.dataset.roomAction;
        button.hidden =
          !live ||
          (action === "start" && (room.status !== "lobby" || autoStart)) ||
          (action === "lock" && (room.locked || room.status !== "lobby")) ||
          (action === "unlock" && (!room.locked || room.status !== "lobby"));
      }
    }
    if (leaveButton) leaveButton.hidden = !(room.status === "lobby" || room.status === "running");
    if (rematchForm) rematchForm.hidden = room.status !== "finished";
    if (layout) layout.classList.toggle("is-running", room.status !== "lobby");
  }

  function roleLabel(seat) {
    if (seat.role === "host") return gettext("host");
    if (seat.role === "spectator") return gettext("watching");
    return "";
  }

  const GONE_TEXT = {
    left: () => gettext("left the game"),
    kicked: () => gettext("removed by the host"),
  };

  // Once the game has started, players who left stay on the list, marked as gone.
  function listed(seat) {
    if (seat.status === "joined") return true;
    return room.status !== "lobby" && seat.role === "player" && seat.status in GONE_TEXT;
  }

  function renderSeats() {
    const seats = room.seats.filter((seat) => seat.status === "joined");
    seatsList.replaceChildren(
      ...room.seats.filter(listed).map((seat) => {
        const item = document.createElement("li");
        const name = document.createElement("span");
        const rosterName = roster[String(seat.player_id)];
        // never innerHTML: nicknames are user input
        name.textContent = rosterName ? `${seat.nickname} (${rosterName})` : seat.nickname;
        item.append(name);
        if (seat.status !== "joined") {
          item.classList.add("is-gone");
          item.dataset.gone = seat.status;
          const gone = document.createElement("span");
          gone.className = "badge";
          gone.textContent = GONE_TEXT[seat.status]();
          item.append(" ", gone);
          return item;
        }
        const label = roleLabel(seat);
        if (label) {
          const badge = document.createElement("span");
          badge.className = "badge";
          badge.textContent = label;
          item.append(" ", badge);
        }
        if (seat.player_id === me) {
          const you = document.createElement("span");
          you.className = "badge";
          you.textContent = pgettext("the viewer's own seat", "you");
          item.append(" ", you);
        }
        if (isHost && seat.role !== "host" && room.status !== "finished" && room.status !== "expired") {
          const kick = document.createElement("button");
          kick.type = "button";
          kick.className = "button small secondary";
          kick.textContent = gettext("Remove");
          kick.addEventListener("click", () => kickPlayer(seat));
          item.append(" ", kick);
        }
        return item;
      }),
    );
    countBadge.textContent = `${playingCount()}/${room.max_players}`;
  }

  async function kickPlayer(seat) {
    const question = interpolate(gettext("Remove %(nickname)s from this room? They cannot come back."), {
      nickname: seat.nickname,
    });
    if (!(await confirmDialog(question))) return;
    socket.send({ type: "kick", player_id: seat.player_id }).catch(showError);
  }

  function showError(error) {
    statusLine.textContent = error.message || error.code;
  }

  function showLeaveError(text) {
    errorLine.textContent = text;
    errorLine.hidden = false;
  }

  function clearLeaveError() {
    errorLine.hidden = true;
    errorLine.textContent = "";
  }

  function leaveQuestion() {
    const texts = leaveButton.dataset;
    if (role === "spectator") return texts.confirmWatching;
    return room && room.status === "running" ? texts.confirmRunning : texts.confirmLobby;
  }

  function goAway() {
    // The server checks that the seat is really left, says so and picks the next page.
    window.location.assign(leaveButton.dataset.leftUrl);
  }

  async function leave() {
    clearLeaveError();
    if (!(await confirmDialog(leaveQuestion()))) return;
    if (!socket.connected) {
      // Queued, the message would leave the room whenever the connection came back.
      showLeaveError(gettext("You are not connected, so you cannot leave yet. Try again when the connection is back."));
      return;
    }
    leaveButton.disabled = true;
    leaving = true;
    try {
      await socket.send({ type: "leave" });
    } catch (error) {
      leaving = false;
      leaveButton.disabled = false;
      if (error.code === "closed" || error.code === "not_in_room") {
        goAway(); // the answer was lost, but the seat may well be left already
        return;
      }
      if (error.code === "timeout") {
        showLeaveError(gettext("The server did not answer. Check your connection and try again."));
      } else {
        showLeaveError(error.message || error.code);
      }
      return;
    }
    socket.close();
    connection.textContent = gettext("You left the room.");
    connection.dataset.state = "closed";
    goAway();
  }

  function upsertSeat(seat) {
    const index = room.seats.findIndex((s) => s.player_id === seat.player_id);
    if (index >= 0) room.seats[index] = seat;
    else room.seats.push(seat);
  }

  function setSeatStatus(playerId, status) {
    const seat = room.seats.find((s) => s.player_id === playerId);
    if (seat) seat.status = status;
  }

  // Once the game runs the invite folds; with nobody else playing (robots only) it goes.
  function foldInvite() {
    if (!invite || !room || room.status === "lobby") return;
    invite.open = false;
    if (playingCount() <= 1) {
      invite.remove();
      if (layout) layout.classList.add("is-single");
    }
  }

  const socket = new RoomSocket(root.dataset.code);
  root.roomSocket = socket;

  socket.addEventListener("sync", (event) => {
    const { detail } = /** @type {CustomEvent} */ (event);
    room = detail.room;
    role = detail.you.role;
    renderSeats();
    showStatus();
    foldInvite();
  });

  socket.addEventListener("event", (event) => {
    if (!room) return;
    for (const change of /** @type {CustomEvent} */ (event).detail.events) {
      switch (change.type) {
        case "player_joined":
          upsertSeat(change.seat);
          break;
        case "player_left":
          setSeatStatus(change.player_id, "left");
          break;
        case "player_kicked":
          setSeatStatus(change.player_id, "kicked");
          break;
        case "locked":
          room.locked = true;
          break;
        case "unlocked":
          room.locked = false;
          break;
        case "started":
          room.status = "running";
          foldInvite();
          break;
        case "finished":
          room.status = "finished";
          break;
        case "expired":
          room.status = "expired";
          break;
        case "rematch":
          // The host started the same table again: this page follows to the new room.
          window.location.assign(`/rooms/${encodeURIComponent(change.code)}/`);
          return;
        default:
          break;
      }
    }
    renderSeats();
    showStatus();
  });

  socket.addEventListener("status", (event) => {
    const texts = {
      connecting: gettext("Connecting…"),
      reconnecting: gettext("Reconnecting…"),
      offline: gettext("Connection lost. Reconnecting…"),
      online: gettext("Connected"),
    };
    const { state } = /** @type {CustomEvent} */ (event).detail;
    connection.textContent = texts[state] || "";
    connection.dataset.state = state;
  });

  // Removed: at once, nothing of the game stays (board, status, controls).
  socket.addEventListener("kicked", (event) => {
    // "You are in the room." no longer holds: the green flash goes too.
    for (const flash of document.querySelectorAll(".messages .message-success")) flash.remove();
    connection.textContent = /** @type {CustomEvent} */ (event).detail.message;
    connection.dataset.state = "closed";
    root.dataset.kicked = "true";
    statusLine.textContent = "";
    statusLine.hidden = true;
    if (board) board.hidden = true;
    // The list would no longer follow the room: it goes too.
    seatsList.hidden = true;
    const heading = countBadge.closest("h2");
    if (heading) heading.hidden = true;
    root.classList.remove("pr-playing");
    for (const row of controlRows) row.hidden = true;
    if (rematchForm) rematchForm.hidden = true;
    if (leaveButton) leaveButton.hidden = true;
  });

  // The teacher's login ended (another tab, the idle timeout...): the socket is
  // closed; the controls, the board and the list go, a notice says why.
  watchHostSession(socket, root, {
    onEnded: () => {
      connection.textContent = gettext("The connection to this room has ended.");
      connection.dataset.state = "closed";
      statusLine.textContent = "";
      if (board) board.hidden = true;
      seatsList.hidden = true;
      for (const row of controlRows) row.hidden = true;
      if (rematchForm) rematchForm.hidden = true;
      if (leaveButton) leaveButton.hidden = true;
    },
  });

  socket.addEventListener("closed", () => {
    if (leaving) return;
    if (leaveButton) leaveButton.hidden = true;
    if (connection.dataset.state !== "closed") {
      connection.textContent = gettext("The connection to this room has ended.");
      connection.dataset.state = "closed";
    }
  });

  if (controls) {
    for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ (root.querySelectorAll("[data-room-action]"))) {
      button.addEventListener("click", async () => {
        if (button.dataset.confirm && !(await confirmDialog(button.dataset.confirm))) return;
        button.disabled = true;
        try {
          await socket.send({ type: button.dataset.roomAction });
        } catch (error) {
          showError(error);
        } finally {
          button.disabled = false;
        }
      });
    }
  }

  if (leaveButton) leaveButton.addEventListener("click", leave);

  window.addEventListener("online", () => socket.reconnectNow());
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") socket.reconnectNow();
  });

  socket.connect();
  root.dispatchEvent(new CustomEvent("room:ready"));
}
