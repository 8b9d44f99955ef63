// @ts-check
// Translations for the ES modules, over Django's JavaScript catalogue (/jsi18n/,
// loaded as a classic script before the modules). When the catalogue is missing
// (offline, blocked, or under node in the tests) the English text is used and
// placeholders are still filled, so a page never breaks on translations.
// Call sites keep the names gettext/ngettext/pgettext so `makemessages -d djangojs`
// extracts their strings.

export function gettext(text) {
  return typeof globalThis.gettext === "function" ? globalThis.gettext(text) : text;
}

/** The singular or the plural form for `count`, by the language's plural rule. */
export function ngettext(singular, plural, count) {
  if (typeof globalThis.ngettext === "function") return globalThis.ngettext(singular, plural, count);
  return count === 1 ? singular : plural;
}

/** A translation with a context, for words that read differently by situation. */
export function pgettext(context, text) {
  return typeof globalThis.pgettext === "function" ? globalThis.pgettext(context, text) : text;
}

/** Fill named placeholders: interpolate(gettext("%(n)s left"), { n: 3 }).
 * A name missing from `values` stays as it is, so a gap shows instead of "undefined". */
export function interpolate(text, values = {}) {
  return text.replace(/%\((\w+)\)s/g, (match, name) => (name in values ? String(values[name]) : match));
}

/** A calendar day ("2026-12-07") as the page's language writes it: "7. prosince 2026",
 * "7. decembra 2026", "7 December 2026" -- never the ISO form in a sentence.
 * Anything else is returned as it came. */
export function dayText(iso) {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(iso ?? ""));
  if (!match) return iso;
  const day = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  const lang = (typeof document !== "undefined" && document.documentElement.lang) || "en";
  return day.toLocaleDateString(lang === "en" ? "en-GB" : lang, {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
}

/** A number with `digits` decimals and the page language's one decimal separator
 * ("1,5" on Czech and Slovak pages, as the server's numbers beside it; "1.5" in English). */
export function numberText(value, digits = 1) {
  const lang = (typeof document !== "undefined" && document.documentElement.lang) || "en";
  return Number(value).toLocaleString(lang, {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
    useGrouping: false,
  });
}
