// A calendar day in a sentence is written as the page's language writes it
// (issue 40 §3, "Czech dates in Czech"): the daily challenge's line under the
// board and its share text said "Denní výzva z 2026-12-07" on Czech pages.
// Run: node --test tests/js/
import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";

import { dayText, numberText } from "../../static/js/kit/i18n.js";

afterEach(() => {
  delete globalThis.document;
});

function onPage(lang) {
  globalThis.document = { documentElement: { lang } };
}

describe("dayText", () => {
  test("Czech and Slovak pages write the day in their own words", () => {
    onPage("cs");
    assert.equal(dayText("2026-12-07"), "7. prosince 2026");
    onPage("sk");
    assert.equal(dayText("2026-12-07"), "7. decembra 2026");
  });

  test("English pages write the day unambiguously, the same in every time zone", () => {
    onPage("en");
    assert.equal(dayText("2026-01-31"), "31 January 2026");
  });

  test("anything but a day comes back as it was", () => {
    onPage("cs");
    assert.equal(dayText("yesterday"), "yesterday");
    assert.equal(dayText(null), null);
  });
});

describe("numberText", () => {
  test("one decimal separator per language: a comma in Czech and Slovak, a point in English", () => {
    onPage("cs");
    assert.equal(numberText(1.5), "1,5");
    onPage("sk");
    assert.equal(numberText(12.34, 1), "12,3");
    onPage("en");
    assert.equal(numberText(1234.5), "1234.5");
  });
});
