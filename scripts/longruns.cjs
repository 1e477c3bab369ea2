// Prints the reference token counts of long unbroken runs, one JSON object
// a line, as OpenAI's tiktoken (the npm package tiktoken: its Rust core
// compiled to WebAssembly) makes them with encode_ordinary. Run it through
// scripts/longruns.sh, which installs the pinned package in a temp dir.
//
// makeRun must make exactly the texts that makeRun in budget/runs_test.go
// makes; the sha256 of each text lets the Go test prove it does.
"use strict";
const crypto = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");
const { get_encoding } = require("tiktoken");
const pkg = path.join(path.dirname(require.resolve("tiktoken")), "package.json");
const version = JSON.parse(fs.readFileSync(pkg, "utf8")).version;

function makeRun(kind, n, seed) {
  let x = seed >>> 0;
  const pick = (k) => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return (x >>> 16) % k;
  };
  const from = (alphabet) => {
    const rs = Array.from(alphabet);
    const out = new Array(n);
    for (let i = 0; i < n; i++) out[i] = rs[pick(rs.length)];
    return out.join("");
  };
  const span = (lo, size) => {
    const out = new Array(n);
    for (let i = 0; i < n; i++) out[i] = String.fromCodePoint(lo + pick(size));
    return out.join("");
  };
  switch (kind) {
    case "letter": return "a".repeat(n);
    case "mixedcase": return from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz");
    case "digits": return from("0123456789");
    case "spaces": return " ".repeat(n);
    case "newlines": return "\n".repeat(n);
    case "whitespace": return from(" \t\n\r");
    case "spaces-letter": return n === 0 ? "" : " ".repeat(n - 1) + "a";
    case "punct": return from("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~");
    case "cjk": return span(0x4e00, 0x5200);
    case "emoji": return span(0x1f600, 0x50);
    case "dna": return from("ACGT");
    case "base64": return from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/");
    case "hex": return from("0123456789abcdef");
  }
  throw new Error(`unknown run kind ${kind}`);
}

const kinds = ["letter", "mixedcase", "digits", "spaces", "newlines", "whitespace",
  "spaces-letter", "punct", "cjk", "emoji", "dna", "base64", "hex"];
const cases = [];
for (const kind of kinds) {
  for (const n of [10000, 30000]) cases.push({ kind, n, seed: 1 });
}
// The runs of the report: the reference merge is quadratic, so 100,000
// characters is as long as it affords (about 15 s each).
for (const kind of ["letter", "spaces", "newlines", "punct", "dna"]) {
  cases.push({ kind, n: 100000, seed: 2 });
}

const encs = Object.fromEntries(["cl100k_base", "o200k_base"].map((e) => [e, get_encoding(e)]));
for (const c of cases) {
  const text = makeRun(c.kind, c.n, c.seed);
  const row = { ...c, sha256: crypto.createHash("sha256").update(text, "utf8").digest("hex") };
  for (const [name, enc] of Object.entries(encs)) row[name] = enc.encode_ordinary(text).length;
  row.tiktoken = version;
  console.log(JSON.stringify(row));
}
for (const enc of Object.values(encs)) enc.free();
