// Downloads inside an LMS frame (issue 37 §4): the file is fetched with the
// page's cookies and saved from a Blob under the server's file name.
// Run: node --test tests/js/
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { fileName, inFrame, saveThroughFetch } from "../../static/js/download.js";

describe("download file names", () => {
  test("the Content-Disposition name, filename* first", () => {
    assert.equal(fileName('attachment; filename="6a-participation.csv"', "x"), "6a-participation.csv");
    assert.equal(fileName("attachment; filename*=UTF-8''%C5%BE%C3%A1ci.xlsx", "x"), "žáci.xlsx");
    assert.equal(fileName(null, "results.csv"), "results.csv");
  });
});

describe("frames", () => {
  test("a page is in a frame when its top is another window, or cannot be read", () => {
    const self = {};
    assert.equal(inFrame({ top: self, self }), false);
    assert.equal(inFrame({ top: {}, self }), true);
    const hostile = {
      get top() {
        throw new Error("cross-origin");
      },
      self,
    };
    assert.equal(inFrame(hostile), true);
  });
});

describe("saving through fetch", () => {
  test("the request carries the page's cookies and the file keeps the server's name", async () => {
    const calls = [];
    const clicked = [];
    const body = { append() {} };
    const doc = {
      body,
      createElement() {
        return {
          click() {
            clicked.push({ href: this.href, download: this.download });
          },
          remove() {},
        };
      },
    };
    const fetchStub = async (url, options) => {
      calls.push({ url, options });
      return {
        ok: true,
        blob: async () => "blob-bytes",
        headers: { get: () => 'attachment; filename="6a-ukol.xlsx"' },
      };
    };
    const urls = { createObjectURL: () => "blob:matika/1", revokeObjectURL() {} };
    const link = { href: "https://matika.example/api/assignments/3/results.xlsx", getAttribute: () => "" };
    const name = await saveThroughFetch(link, { fetch: fetchStub, doc, urls });
    assert.equal(name, "6a-ukol.xlsx");
    assert.deepEqual(calls, [{ url: link.href, options: { credentials: "include" } }]);
    assert.deepEqual(clicked, [{ href: "blob:matika/1", download: "6a-ukol.xlsx" }]);
  });

  test("a refused answer is an error (the page then opens a window)", async () => {
    const fetchStub = async () => ({ ok: false, status: 403 });
    await assert.rejects(
      saveThroughFetch({ href: "/x.csv", getAttribute: () => "" }, { fetch: fetchStub, doc: {}, urls: {} }),
      /HTTP 403/,
    );
  });
});
