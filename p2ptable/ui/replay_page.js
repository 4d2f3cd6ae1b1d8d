// The replay page's own script (p2ptable export --format html), inlined after the
// vendored @noble/ed25519 and @noble/hashes (ui/inline_js.py puts their exports in
// __modules): it checks signatures with noble's verifyAsync, and hashes with the
// browser's WebCrypto where there is one (file://, https://), with noble's SHA-256
// and SHA-512 where there is none (a page served over plain http).
//
// How it works: the page's data (a JSON script element, ui/html_data.py) holds every
// entry of the log exactly as in the file (base64).  check() re-does, in the browser,
// what protocol/replay.md sections 3-5 say of signatures and links: each entry
// decodes as canonical msgpack, its `prev` is the SHA-256 of the entry before, each
// signature it carries (and each signed part of an open, secrets or commits entry)
// verifies under the genesis's key for its seat over
// "p2ptable/sig/v1" 0x00 || game id || body, and the entry has exactly the
// signatures its kind needs.  At a table that keeps going (replay.md 9.8) a
// `departure` makes its seat gone: the departure's own parts are `share` bodies
// signed by their seats, and from then on the gone seat's entries and parts are
// unsigned (every verifier makes them again byte for byte: verify's work) and
// the result is signed by the seats still there.  The rules, the randomness and the sealed-deck proofs
// are p2ptable verify's: the page says so.  The pictures were drawn at export time
// from the views the screens use; the page only shows them.
{
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const $ = (id) => document.getElementById(id);
  const utf8 = new TextEncoder();
  const fromB64 = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
  const cat = (...parts) => {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) { out.set(p, at); at += p.length; }
    return out;
  };
  const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
  const { verifyAsync, hashes } = __modules["noble-ed25519"];
  const noble = __modules["sha2"];
  const subtle = globalThis.crypto && globalThis.crypto.subtle;
  if (!subtle) hashes.sha512Async = async (message) => noble.sha512(message);
  const sha256 = subtle
    ? async (bytes) => new Uint8Array(await subtle.digest("SHA-256", bytes))
    : async (bytes) => noble.sha256(bytes);

  // -- canonical msgpack (protocol/replay.md section 2): decode, and encode to compare
  function decode(bytes) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let p = 0;
    const take = (n) => { if (p + n > bytes.length) throw new Error("truncated"); const s = bytes.subarray(p, p + n); p += n; return s; };
    const uint = (n) => { const s = take(n); let v = 0; for (const b of s) v = v * 256 + b; return v; };
    const int = (n) => { const v = uint(n); const top = 2 ** (8 * n); return v >= top / 2 ? v - top : v; };
    const str = (n) => new TextDecoder("utf-8", { fatal: true }).decode(take(n));
    const arr = (n) => Array.from({ length: n }, () => value());
    const map = (n) => { const m = new Map(); for (let k = 0; k < n; k++) { const key = value(); m.set(key, value()); } return m; };
    function value() {
      const b = uint(1);
      if (b <= 0x7f) return b;
      if (b >= 0xe0) return b - 256;
      if ((b & 0xe0) === 0xa0) return str(b & 0x1f);
      if ((b & 0xf0) === 0x90) return arr(b & 0x0f);
      if ((b & 0xf0) === 0x80) return map(b & 0x0f);
      switch (b) {
        case 0xc0: return null;
        case 0xc2: return false;
        case 0xc3: return true;
        case 0xc4: return take(uint(1));
        case 0xc5: return take(uint(2));
        case 0xc6: return take(uint(4));
        case 0xcc: return uint(1);
        case 0xcd: return uint(2);
        case 0xce: return uint(4);
        case 0xcf: return uint(8);
        case 0xd0: return int(1);
        case 0xd1: return int(2);
        case 0xd2: return int(4);
        case 0xd3: return int(8);
        case 0xd9: return str(uint(1));
        case 0xda: return str(uint(2));
        case 0xdb: return str(uint(4));
        case 0xdc: return arr(uint(2));
        case 0xdd: return arr(uint(4));
        case 0xde: return map(uint(2));
        case 0xdf: return map(uint(4));
      }
      throw new Error("type 0x" + b.toString(16) + " is not allowed");
    }
    const v = value();
    if (p !== bytes.length) throw new Error("trailing bytes");
    if (!same(encode(v), bytes)) throw new Error("not canonical");
    return v;
  }
  function encode(v) {
    const head = (small, base, codes, n) => {
      if (small !== null && n <= small) return Uint8Array.of(base + n);
      for (const [code, size] of codes) {
        if (n < 2 ** (8 * size)) {
          const out = [code];
          for (let k = size - 1; k >= 0; k--) out.push(Math.floor(n / 2 ** (8 * k)) % 256);
          return Uint8Array.from(out);
        }
      }
      throw new Error("too long");
    };
    if (v === null) return Uint8Array.of(0xc0);
    if (v === false) return Uint8Array.of(0xc2);
    if (v === true) return Uint8Array.of(0xc3);
    if (typeof v === "number") {
      if (v >= 0) return head(127, 0, [[0xcc, 1], [0xcd, 2], [0xce, 4], [0xcf, 8]], v);
      if (v >= -32) return Uint8Array.of(256 + v);
      for (const [code, size] of [[0xd0, 1], [0xd1, 2], [0xd2, 4], [0xd3, 8]]) {
        if (v >= -(2 ** (8 * size - 1))) {
          return cat(Uint8Array.of(code), head(null, 0, [[0, size]], v + 2 ** (8 * size)).subarray(1));
        }
      }
    }
    if (typeof v === "string") {
      const b = utf8.encode(v);
      return cat(head(31, 0xa0, [[0xd9, 1], [0xda, 2], [0xdb, 4]], b.length), b);
    }
    if (v instanceof Uint8Array) return cat(head(null, 0, [[0xc4, 1], [0xc5, 2], [0xc6, 4]], v.length), v);
    if (Array.isArray(v)) return cat(head(15, 0x90, [[0xdc, 2], [0xdd, 4]], v.length), ...v.map(encode));
    if (v instanceof Map) {
      const keys = [...v.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      return cat(head(15, 0x80, [[0xde, 2], [0xdf, 4]], keys.length), ...keys.flatMap((k) => [encode(k), encode(v.get(k))]));
    }
    throw new Error("cannot encode " + typeof v);
  }

  // -- the check: links and signatures, entry by entry, stopping at the first failure
  const SIG_DOMAIN = cat(utf8.encode("p2ptable/sig/v1"), Uint8Array.of(0));
  const PARTS_SIGNED = { open: true, secrets: true, commits: true, choices: true, departure: true };

  async function check(entries) {
    let keys = [], gameId = null, prevHash = null, n = 0;
    const gone = new Set(); // seats that left (replay.md 9.8): nobody signs for them
    for (let i = 0; i < entries.length; i++) {
      const fail = (why) => ({ ok: false, entry: i, text: `entry ${i} fails: ${why}` });
      try {
        const failed = await checkOne(i, fail);
        if (failed) return failed;
      } catch (e) { // a field of the wrong type, a signature of the wrong length, ...
        return fail("malformed (" + e.message + ")");
      }
    }
    return { ok: true, text: `valid: every signature and link checks (${entries.length} entries)` };

    async function checkOne(i, fail) {
      let raw, outer, body;
      try {
        raw = fromB64(entries[i]);
        outer = decode(raw);
        if (!Array.isArray(outer) || outer.length !== 2 || !(outer[0] instanceof Uint8Array)) throw new Error("not [body, sigs]");
        body = decode(outer[0]);
        if (!(body instanceof Map)) throw new Error("body is not a map");
      } catch (e) {
        return fail("malformed (" + e.message + ")");
      }
      const kind = body.get("t");
      if (i === 0) {
        if (kind !== "genesis") return fail("the first entry is not a genesis");
        keys = body.get("seats").map((s) => s.get("key"));
        n = keys.length;
        gameId = await sha256(cat(utf8.encode("p2ptable/game-id/v1"), Uint8Array.of(0), outer[0]));
      } else {
        if (body.get("i") !== i) return fail(`its index says ${body.get("i")}`);
        const prev = body.get("prev");
        if (!(prev instanceof Uint8Array) || !same(prev, prevHash)) return fail("its link (prev) is not the hash of the entry before");
      }
      const sigs = outer[1];
      const seats = sigs.map((s) => s[0]);
      const all = Array.from({ length: n }, (_, k) => k);
      const staying = all.filter((k) => !gone.has(k));
      const author = gone.has(body.get("seat")) ? [] : [body.get("seat")];
      const want = { genesis: all, result: staying, action: author, shuffle: author, escrow: [body.get("seat")] }[kind];
      if (want && !same(seats, want)) return fail(`signed by seats [${seats}], not [${want}]`);
      if (!want && kind !== "abort" && sigs.length) return fail(`a ${kind} entry carries no signature`);
      const message = cat(SIG_DOMAIN, gameId, outer[0]);
      for (const [seat, sig] of sigs) {
        if (!keys[seat] || !(await verifyAsync(sig, message, keys[seat], { zip215: false }))) {
          return fail(`the signature of ${data.names[seat] ?? "seat " + seat} does not verify`);
        }
      }
      if (PARTS_SIGNED[kind]) {
        const parts = body.get("parts");
        for (let k = 0; k < parts.length; k++) {
          if (!Array.isArray(parts[k])) continue; // a protocol 3 choices opening: it opens a signed commit
          const [msg, sig] = parts[k];
          const seat = body.has("seats") ? body.get("seats")[k] : k;
          if (gone.has(seat) && kind !== "departure") {
            if (sig.length) return fail(`${data.names[seat] ?? "seat " + seat} left: its part is unsigned`);
            continue; // its stand-in's part, made again by verify
          }
          const part = kind === "departure"
            ? new Map([["t", "share"], ["i", i], ["prev", body.get("prev")], ["seat", seat], ["of", body.get("of")], ["share", msg]])
            : new Map([["t", "part"], ["i", i], ["prev", body.get("prev")], ["seat", seat], ["msg", msg]]);
          const signed = cat(SIG_DOMAIN, gameId, encode(part));
          if (!keys[seat] || !(await verifyAsync(sig, signed, keys[seat], { zip215: false }))) {
            return fail(`the signed part of ${data.names[seat] ?? "seat " + seat} does not verify`);
          }
        }
      }
      if (kind === "departure") gone.add(body.get("of"));
      prevHash = await sha256(raw);
      return null;
    }
  }

  // -- stepping and views
  const last = data.entries.length - 1;
  const state = { entry: 0, view: data.views[0].id };
  const slider = $("slider");
  slider.max = String(last);

  function show(index) {
    state.entry = Math.max(0, Math.min(last, index));
    const ids = data.frames[state.view][state.entry];
    $("table").innerHTML =
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${data.width} ${data.heights[state.view]}" role="img">` +
      ids.map((k) => data.pieces[k]).join("") + "</svg>";
    const own = (data.own_words[state.view] || {})[String(state.entry)];
    const moment = data.moments[state.entry];
    $("number").textContent = `Entry ${state.entry} of ${last}`;
    $("moment").textContent = moment || "";
    $("words").textContent = own || data.words[state.entry];
    // The table's talk said after this entry (ui/html_data.py), as text only.
    const talk = $("talk");
    talk.replaceChildren(...((data.talk || {})[String(state.entry)] || []).map((said) => {
      const li = document.createElement("li");
      li.textContent = `${said.name} says: ${said.text}`;
      return li;
    }));
    slider.value = String(state.entry);
    const hash = `#entry-${state.entry}`;
    if (location.hash !== hash) history.replaceState(null, "", hash);
    $("share").href = hash;
  }
  const fromHash = () => {
    const m = /^#entry-(\d+)$/.exec(location.hash);
    return m ? Number(m[1]) : 0;
  };

  const views = $("views");
  for (const v of data.views) {
    const b = document.createElement("button");
    b.textContent = v.label;
    b.dataset.view = v.id;
    b.setAttribute("aria-pressed", String(v.id === state.view));
    b.onclick = () => {
      state.view = v.id;
      for (const other of views.children) other.setAttribute("aria-pressed", String(other === b));
      show(state.entry);
    };
    views.appendChild(b);
  }
  $("first").onclick = () => show(0);
  $("prev").onclick = () => show(state.entry - 1);
  $("next").onclick = () => show(state.entry + 1);
  $("last").onclick = () => show(last);
  slider.oninput = () => show(Number(slider.value));
  window.addEventListener("hashchange", () => show(fromHash()));
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement && e.target.type !== "range") return;
    const go = { ArrowLeft: state.entry - 1, ArrowRight: state.entry + 1, Home: 0, End: last }[e.key];
    if (go !== undefined) { e.preventDefault(); show(go); }
  });
  show(fromHash());

  const verdict = $("verdict");
  check(data.entries).then(
    (r) => {
      verdict.textContent = r.text;
      verdict.className = r.ok === true ? "valid" : r.ok === false ? "invalid" : "unknown";
      verdict.dataset.entry = r.ok === false ? String(r.entry) : "";
      verdict.dataset.hashes = subtle ? "webcrypto" : "noble";
    },
    (e) => { verdict.textContent = "not checked: " + e.message; verdict.className = "unknown"; },
  );
}
