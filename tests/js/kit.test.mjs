// The shared JS kit's translation wrappers: they use Django's catalogue when the
// page loaded it and keep working (English, placeholders filled) when it did not.
// Run: node --test tests/js/
import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";

import { gettext, interpolate, ngettext } from "../../static/js/kit/i18n.js";

afterEach(() => {
  delete globalThis.gettext;
  delete globalThis.ngettext;
});

describe("kit i18n without the catalogue", () => {
  test("gettext gives the English text back", () => {
    assert.equal(gettext("Row %(number)s"), "Row %(number)s");
  });

  test("ngettext picks the English singular for one and the plural otherwise", () => {
    assert.equal(ngettext("%(count)s cell", "%(count)s cells", 1), "%(count)s cell");
    assert.equal(ngettext("%(count)s cell", "%(count)s cells", 0), "%(count)s cells");
    assert.equal(ngettext("%(count)s cell", "%(count)s cells", 5), "%(count)s cells");
  });
});

describe("kit i18n with the catalogue", () => {
  test("gettext and ngettext ask Django's catalogue", () => {
    globalThis.gettext = (text) => (text === "Row %(number)s" ? "Řádek %(number)s" : text);
    globalThis.ngettext = (singular, plural, count) => (count < 5 ? "%(count)s políčka" : "%(count)s políček");
    assert.equal(gettext("Row %(number)s"), "Řádek %(number)s");
    assert.equal(ngettext("%(count)s cell", "%(count)s cells", 3), "%(count)s políčka");
    assert.equal(ngettext("%(count)s cell", "%(count)s cells", 7), "%(count)s políček");
  });
});

describe("kit interpolate", () => {
  test("fills every named placeholder, numbers as text", () => {
    assert.equal(interpolate("Row %(row)s, column %(column)s", { row: 2, column: 5 }), "Row 2, column 5");
    assert.equal(interpolate("%(n)s and %(n)s", { n: 0 }), "0 and 0");
  });

  test("leaves a placeholder without a value as it is", () => {
    assert.equal(interpolate("%(points)s points", {}), "%(points)s points");
    assert.equal(interpolate("no placeholders"), "no placeholders");
  });
});
