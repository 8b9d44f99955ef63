// LTI client-side storage (IMS "LTI Client Side postMessages": lti.put_data and
// lti.get_data). Where the LMS's frame keeps no cookie, the sign-in's binding to
// this browser travels through the LMS page instead: the login puts it there, the
// launch gets it back and posts it with the launch. Only answers from the LMS's
// own origin count.
/** @type {HTMLElement | null} */
const root = document.querySelector("[data-lti-storage]");

function storageWindow(name) {
  const parent = window.parent !== window ? window.parent : window.opener;
  if (!parent) {
    return null;
  }
  if (!name || name === "_parent") {
    return parent;
  }
  try {
    return parent.frames[name] || parent;
  } catch {
    return parent;
  }
}

function ask(target, origin, message, seconds) {
  return new Promise((resolve) => {
    const id = `matika-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const done = (value) => {
      window.removeEventListener("message", listen);
      resolve(value);
    };
    const listen = (event) => {
      const data = event.data;
      if (event.origin !== origin || !data || typeof data !== "object") {
        return;
      }
      if (data.message_id === id && data.subject === `${message.subject}.response`) {
        done(data.error ? null : data);
      }
    };
    window.addEventListener("message", listen);
    try {
      target.postMessage({ ...message, message_id: id }, origin);
    } catch {
      done(null);
      return;
    }
    window.setTimeout(() => done(null), seconds * 1000);
  });
}

async function put(el) {
  const target = storageWindow(el.dataset.target);
  if (target) {
    await ask(
      target,
      el.dataset.origin,
      { subject: "lti.put_data", key: el.dataset.key, value: el.dataset.value },
      3,
    );
  }
  window.location.replace(el.dataset.url);
}

async function get(el) {
  const target = storageWindow(el.dataset.target);
  const answer = target
    ? await ask(target, el.dataset.origin, { subject: "lti.get_data", key: el.dataset.key }, 3)
    : null;
  const form = el.querySelector("form");
  if (answer && typeof answer.value === "string" && answer.value) {
    form.elements.lti_storage_value.value = answer.value;
    form.submit();
    return;
  }
  for (const hidden of el.querySelectorAll("[data-lti-fallback]")) {
    hidden.hidden = false;
  }
  for (const waiting of el.querySelectorAll("[data-lti-waiting]")) {
    waiting.hidden = true;
  }
}

if (root) {
  if (root.dataset.ltiStorage === "put") {
    put(root);
  } else {
    get(root);
  }
}
