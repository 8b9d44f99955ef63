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
