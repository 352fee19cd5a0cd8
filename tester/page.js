// robotstat tester: reads the test case from the inputs or the URL
// fragment, asks the WebAssembly module (package explain, through
// robotstatExplain) and renders its JSON. It decides nothing itself. Every
// value from the case is put in the page as text (textContent), never as
// markup.
"use strict";
(() => {
	const $ = (id) => document.getElementById(id);
	const ui = {
		form: $("case"), robots: $("robots"), file: $("robots-file"), agents: $("agents"), urls: $("urls"),
		status: $("status"), chips: $("bot-chips"), link: $("link"), linkNote: $("link-note"), copy: $("copy"),
		copied: $("copied"), state: $("state"), error: $("error"),
	};
	const bots = JSON.parse($("rs-bots").textContent);
	const initial = JSON.parse($("rs-case").textContent);
	let ready = false;

	// el builds an element: attrs are properties, except class, data-*
	// and aria-*, which are attributes; kids are nodes or strings (text).
	function el(tag, attrs, ...kids) {
		const e = document.createElement(tag);
		for (const [k, v] of Object.entries(attrs || {})) {
			if (v === undefined || v === null || v === false) continue;
			if (k === "class") e.className = v;
			else if (k.startsWith("data-") || k.startsWith("aria-") || k === "scope" || k === "colspan") e.setAttribute(k, v);
			else e[k] = v;
		}
		for (const kid of kids.flat()) {
			if (kid === undefined || kid === null || kid === false) continue;
			e.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
		}
		return e;
	}
	const code = (s) => el("code", null, s);
	const plural = (n, one, many) => n + " " + (n === 1 ? one : many);
	// breakable is a URL as code that may wrap after "/", "?" and "&",
	// and only there unless a part is longer than the line.
	const breakable = (u) => el("code", { class: "url" }, u.split(/(?<=[/?&])/).flatMap((part) => [part, el("wbr")]));
	const ln = (n) => el("span", { class: "ln" }, n > 0 ? "line " + n : "file");

	// The fragment: robots=...&agent=...&url=...&status=..., URL-encoded.
	function readFragment(hash) {
		if (!hash || hash.length < 2) return null;
		const p = new URLSearchParams(hash.slice(1));
		if (!p.has("robots") && !p.has("agent") && !p.has("url")) return null;
		return { robots: p.get("robots") || "", agents: p.getAll("agent"), urls: p.getAll("url"), status: parseInt(p.get("status") || "200", 10) || 200 };
	}
	function fragment(c) {
		const parts = ["robots=" + encodeURIComponent(c.robots)];
		for (const a of c.agents) parts.push("agent=" + encodeURIComponent(a));
		for (const u of c.urls) parts.push("url=" + encodeURIComponent(u));
		if (c.status !== 200) parts.push("status=" + c.status);
		return parts.join("&");
	}
	const lines = (s) => s.split(/\r\n|\r|\n/).map((l) => l.trim()).filter((l) => l !== "");

	function fill(c) {
		ui.robots.value = c.robots;
		ui.agents.value = c.agents.join("\n");
		ui.urls.value = c.urls.join("\n");
		ui.status.value = String(c.status || 200);
	}
	function current() {
		const st = parseInt(ui.status.value, 10);
		return { robots: ui.robots.value, agents: lines(ui.agents.value), urls: lines(ui.urls.value), status: Number.isFinite(st) ? st : 200 };
	}

	function setLink(c) {
		const frag = fragment(c);
		let href = location.href.split("#")[0] + "#" + frag;
		try {
			history.replaceState(null, "", "#" + frag);
			href = location.href;
		} catch (e) { /* some browsers refuse it for file: URLs; the link below still works */ }
		ui.link.value = href;
		ui.linkNote.textContent = href.length > 100000
			? "The link is " + Math.round(href.length / 1024) + " KB long: some mail and chat programs cut long links; send the page and the robots.txt instead."
			: "The fragment after # holds the whole test case; it is not sent to any server.";
	}

	function markChips() {
		const chosen = new Set(lines(ui.agents.value).map((a) => a.toLowerCase()));
		for (const b of ui.chips.children) b.setAttribute("aria-pressed", chosen.has(b.dataset.token.toLowerCase()) ? "true" : "false");
	}
	function toggleAgent(token) {
		const list = lines(ui.agents.value);
		const i = list.findIndex((a) => a.toLowerCase() === token.toLowerCase());
		if (i >= 0) list.splice(i, 1); else list.push(token);
		ui.agents.value = list.join("\n");
		run();
	}
	for (const b of bots) {
		ui.chips.append(el("button", { type: "button", "data-token": b.token, "aria-pressed": "false", title: b.operator + ", " + b.category, onclick: () => toggleAgent(b.token) }, b.token));
	}

	function run() {
		markChips();
		const c = current();
		setLink(c);
		if (!ready) return;
		let reply;
		try {
			reply = JSON.parse(globalThis.robotstatExplain(JSON.stringify({ robots: c.robots, agents: c.agents, urls: c.urls, status: c.status, bots: bots })));
		} catch (e) {
			reply = { error: "the WebAssembly module failed: " + e };
		}
		render(reply, c);
	}
	let timer = 0;
	const soon = () => { clearTimeout(timer); timer = setTimeout(run, 250); };

	// Rendering the reply.
	function render(reply, c) {
		ui.error.hidden = !reply.error;
		ui.error.textContent = reply.error ? "Cannot test this case: " + reply.error : "";
		for (const id of ["decisions", "file", "bots"]) $(id).hidden = !!reply.error;
		if (reply.error) { ui.state.textContent = "No answer."; return; }
		const rep = reply.report;
		const dis = rep.decisions.filter((d) => !d.allowed).length;
		ui.state.textContent = rep.decisions.length === 0
			? "Name at least one agent and one URL to get a decision."
			: rep.decisions.length + (rep.decisions.length === 1 ? " decision: " : " decisions: ") + (rep.decisions.length - dis) + " allowed, " + dis + " disallowed.";
		$("decision-list").replaceChildren(...rep.decisions.map(decision));
		glance(rep.decisions, c);
		renderFile(rep);
		renderBots(rep);
	}

	// glance is the decisions as a table, URLs by agents, when there are
	// several; each cell leads to its decision. The cells carry no
	// data-decision: the decisions below are the machine-readable ones.
	function glance(ds, c) {
		const box = $("glance");
		box.replaceChildren();
		box.hidden = ds.length < 2;
		if (ds.length < 2) return;
		const agents = c.agents, urls = c.urls;
		const head = el("tr", null, el("th", { scope: "col" }, "URL"), agents.map((a) => el("th", { scope: "col" }, a)));
		const rows = urls.map((u, j) => el("tr", null, el("th", { scope: "row" }, breakable(u)), agents.map((a, i) => {
			const d = ds[i * urls.length + j];
			return el("td", null, el("a", { href: "#", class: "cell " + d.verdict, title: d.verdict + ": " + d.text,
				onclick: (e) => { e.preventDefault(); const li = $("decision-list").children[i * urls.length + j]; li.scrollIntoView({ block: "start" }); li.focus(); } },
			d.allowed ? "✓ allowed" : "✗ disallowed"));
		})));
		box.append(el("div", { class: "scroll" }, el("table", { class: "data glance" }, el("caption", null, "At a glance (each answer leads to its explanation)"), el("thead", null, head), el("tbody", null, rows))));
	}

	function decision(d) {
		const facts = el("dl", { class: "facts" });
		const fact = (term, ...dd) => facts.append(el("dt", null, term), el("dd", null, ...dd));
		if (d.agent_note) fact("Agent", d.agent_note);
		fact("Path matched", code(d.path), d.path !== d.url ? el("span", { class: "hint" }, " (the URL's path and query, percent-normalised)") : null);
		fact("Groups", d.why, d.groups.length ? el("ul", { class: "groups" }, d.groups.map(group)) : null);
		if (d.rule) {
			fact("Deciding line", ln(d.rule.line), code(written(d.rule)), readAs(d.rule),
				d.rule.pattern !== d.rule.value ? el("div", null, "pattern ", code(d.rule.value), " normalised to ", code(d.rule.pattern)) : null,
				el("div", { class: "hint" }, d.rule.note));
		} else {
			fact("Decided by", reasonText(d));
		}
		if (d.tried > 0 || d.matched.length > 0) {
			fact("Rules that matched", d.matched.length === 0
				? (d.tried === 1 ? "the one rule of these groups does not match the path" : "none of the " + d.tried + " rules of these groups matches the path")
				: [matchedTable(d), el("div", { class: "hint" }, d.matched.length + " of " + plural(d.tried, "rule", "rules") + (d.matched.length === 1 ? " matches" : " match") + "; the longest pattern wins, allow wins a tie (RFC 9309 §2.2.2).")]);
		}
		fact("check --explain", el("code", { class: "explain" }, d.verdict + " " + d.url + "\t" + d.text));
		return el("li", { class: "decision", "data-decision": d.verdict, "data-agent": d.agent, "data-url": d.url, tabIndex: -1 },
			el("div", { class: "dhead" }, el("span", { class: "badge " + d.verdict }, d.allowed ? "✓ allowed" : "✗ disallowed"),
				el("span", { class: "what" }, el("strong", null, d.agent), " → ", code(d.url))),
			facts);
	}
	const directive = (d) => d === "allow" ? "Allow" : "Disallow";
	// written is a rule's line as the file has it (trailing spaces and
	// comment included), or its canonical form without the file.
	const written = (r) => r.text || directive(r.directive) + ": " + r.value;
	const readAs = (r) => r.read_as ? el("span", { class: "hint" }, " read as ", code(r.read_as)) : null;
	function reasonText(d) {
		switch (d.reason) {
		case "no-match": return "no rule matches: allowed (RFC 9309 §2.2.2)";
		case "no-group": return "no group applies: allowed (RFC 9309 §2.2.1)";
		case "implicit": return "/robots.txt is always allowed (RFC 9309 §2.2.2)";
		case "unavailable": return "the status says the robots.txt is unavailable: everything allowed (RFC 9309 §2.3.1.3)";
		case "unreachable": return "the status says the robots.txt is unreachable: everything disallowed (RFC 9309 §2.3.1.4)";
		}
		return d.reason;
	}
	function group(g) {
		return el("li", null, "group at line " + g.line + " (" + g.rules + (g.rules === 1 ? " rule" : " rules") + ")",
			el("ul", { class: "agents" }, g.agents.map((a) => el("li", { class: a.applies ? "applies" : "" }, ln(a.line), code("User-agent: " + a.value)))));
	}
	function matchedTable(d) {
		const rows = d.matched.map((r) => el("tr", { class: r.decides ? "decides" : "" },
			el("td", { class: "num" }, r.line),
			el("td", null, code(written(r)), readAs(r),
				r.pattern !== r.value ? el("div", { class: "hint" }, "normalised ", code(r.pattern)) : null,
				r.wildcard ? el("span", { class: "tag", title: "* matches any run of characters (RFC 9309 §2.2.3)" }, "*") : null,
				r.anchored ? el("span", { class: "tag", title: "$ anchors the end of the path (RFC 9309 §2.2.3)" }, "$ end") : null),
			el("td", { class: "num" }, r.length),
			el("td", null, r.decides ? el("strong", null, "decides") : "loses", r.note ? el("div", { class: "hint" }, r.note) : null)));
		return el("div", { class: "scroll" }, el("table", { class: "data" },
			el("thead", null, el("tr", null, el("th", { scope: "col" }, "line"), el("th", { scope: "col" }, "rule"), el("th", { scope: "col" }, "octets"), el("th", { scope: "col" }, "outcome"))),
			el("tbody", null, rows)));
	}

	function renderFile(rep) {
		const f = rep.file;
		$("file-summary").textContent = !f.read
			? "Status " + rep.status + ": the body is not read as a robots.txt (RFC 9309 §2.3.1), so it has no lines, groups or rules."
			: f.lines + (f.lines === 1 ? " line, " : " lines, ") + f.groups + (f.groups === 1 ? " group, " : " groups, ") + f.rules + (f.rules === 1 ? " rule" : " rules") +
				" (" + f.size + " bytes" + (f.parsed < f.size ? ", of which the first " + f.parsed + " are parsed (RFC 9309 §2.5)" : "") + ").";
		$("diagnostics").replaceChildren(f.diagnostics.length === 0 ? el("p", { class: "help" }, "Nothing unusual.") : table(["line", "finding", "the line", "read as"],
			f.diagnostics.map((d) => [d.line > 0 ? d.line : "file", [el("span", { class: "tag" }, d.code), " ", d.message], d.text ? code(d.text) : null, d.read_as ? code(d.read_as) : null]),
			(d) => ({ "data-code": d.code }), f.diagnostics));
		$("records").replaceChildren(f.records.length === 0 ? el("p", { class: "help" }, "None: no Sitemap, Crawl-delay, Host, Content-Signal, Content-Usage or other record.") : table(["line", "record", "group", "what it is"],
			f.records.map((r) => [r.line, code(r.key + ": " + r.value), r.group_line > 0 ? "line " + r.group_line : r.name === "sitemap" ? "none: global" : "outside any group", r.note]),
			(r) => ({ "data-record": r.name }), f.records));
	}

	function renderBots(rep) {
		// A 4xx or 5xx body is not read (RFC 9309 §2.3.1): the status decides, not a missing group.
		const matched = (b) => !rep.file.read ? "status " + rep.status : b.match === "named" ? "named" : b.match === "star" ? "via *" : "no group";
		const count = {};
		for (const b of rep.bots) {
			const k = b.verdict + " (" + matched(b) + ")";
			count[k] = (count[k] || 0) + 1;
		}
		$("bot-summary").textContent = rep.bots.length === 0 ? "" : rep.bots.length + " AI bots: " +
			Object.entries(count).sort((a, b) => b[1] - a[1]).map(([k, n]) => n + " " + k).join(", ") + ".";
		$("bot-table").replaceChildren(rep.bots.length === 0 ? el("p", { class: "help" }, "No catalog in this page.") : table(["bot", "verdict", "matched"],
			rep.bots.map((b) => [[el("button", { type: "button", class: "linkish", title: "test as this agent", onclick: () => toggleAgent(b.token) }, b.token),
				el("div", { class: "hint" }, b.operator + " · " + b.category)],
			el("span", { class: "v-" + b.verdict }, b.verdict), [matched(b), b.group_lines.length ? el("span", { class: "hint" }, " (line " + b.group_lines.join(", ") + ")") : null]]),
			(b) => ({ "data-bot": b.token, "data-verdict": b.verdict, "data-match": b.match }), rep.bots, "bots"));
	}

	// table draws rows of cells under head; attrs gives each row's
	// attributes from its item. On a phone a "stack" table shows each row
	// as a block, its cells labelled by their column.
	function table(head, rows, attrs, items, cls) {
		return el("div", { class: "scroll" }, el("table", { class: "data " + (cls || "stack") },
			el("thead", null, el("tr", null, head.map((h) => el("th", { scope: "col" }, h)))),
			el("tbody", null, rows.map((cells, i) => el("tr", attrs ? attrs(items[i]) : null, cells.map((c, k) => el("td", { "data-label": head[k] }, c)))))));
	}

	// Inputs. The skip link moves the focus itself: following its #results
	// would replace the fragment that holds the case.
	$("skip").addEventListener("click", (e) => { e.preventDefault(); $("results").focus(); $("results").scrollIntoView(); });
	ui.form.addEventListener("submit", (e) => { e.preventDefault(); run(); });
	for (const input of [ui.robots, ui.agents, ui.urls, ui.status]) input.addEventListener("input", soon);
	window.addEventListener("hashchange", () => { const c = readFragment(location.hash); if (c) { fill(c); run(); } });
	function load(file) {
		const r = new FileReader();
		r.onload = () => { ui.robots.value = r.result; run(); };
		r.onerror = () => { ui.error.hidden = false; ui.error.textContent = "Cannot read " + file.name + ": " + r.error; };
		r.readAsText(file);
	}
	ui.file.addEventListener("change", () => { if (ui.file.files.length) load(ui.file.files[0]); });
	ui.robots.addEventListener("dragover", (e) => { e.preventDefault(); ui.robots.classList.add("drop"); });
	ui.robots.addEventListener("dragleave", () => ui.robots.classList.remove("drop"));
	ui.robots.addEventListener("drop", (e) => {
		ui.robots.classList.remove("drop");
		if (e.dataTransfer && e.dataTransfer.files.length) { e.preventDefault(); load(e.dataTransfer.files[0]); }
	});
	ui.copy.addEventListener("click", async () => {
		run();
		try { await navigator.clipboard.writeText(ui.link.value); ui.copied.textContent = "Copied."; }
		catch (e) { ui.link.select(); ui.copied.textContent = "Selected: copy it with Ctrl+C or ⌘C."; }
	});

	// Start: the case from the fragment, else the page's own; then the
	// module, inlined as gzip in base64 (no fetch: the page opens from a
	// file, offline).
	fill(readFragment(location.hash) || initial);
	run();
	(async () => {
		try {
			if (typeof DecompressionStream !== "function") throw new Error("this browser has no DecompressionStream (Chrome 80, Firefox 113, Safari 16.4 and later have it)");
			const b64 = $("rs-wasm").textContent.trim();
			const gz = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
			const wasm = await new Response(new Blob([gz]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
			const go = new Go();
			// Compiled synchronously (a 4 MB module takes a fraction of a
			// second): a headless browser's virtual time, which the page's
			// checks run under, does not wait for a background compile.
			const instance = new WebAssembly.Instance(new WebAssembly.Module(wasm), go.importObject);
			go.run(instance); // registers robotstatExplain, then waits for calls
			if (typeof globalThis.robotstatExplain !== "function") throw new Error("the module did not register robotstatExplain");
			ready = true;
			run();
		} catch (e) {
			ui.state.textContent = "";
			ui.error.hidden = false;
			ui.error.textContent = "The parser could not start: " + e.message;
		}
	})();
})();
