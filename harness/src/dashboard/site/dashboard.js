// perfgate dashboard: the one page's views, drawn from the data files `perfgate dashboard` wrote
// (data/index.js, data/case/<key>.js, data/run/<key>.js; harness/src/dashboard/site_model.h says
// what they hold). Views are hash routes, each a permalink (docs/dashboard.md):
//   #/                 what needs attention first, the devices calibrated per machine id, then every
//                      case's series (#/?state=open&machine=...)
//   #/case/<case id>   a case's series per machine (the id URI-encoded)
//   #/run/<run id>     a run's verdicts, worst first
// Every string from the data is put in the page as text (textContent, text nodes), never as HTML.
'use strict';
(function () {
  const store = { index: null, case: new Map(), run: new Map() };
  let charts = []; // the uPlot instances of the view shown, resized with the window

  window.perfgateData = function (kind, key, doc) {
    if (kind === 'index') {
      store.index = doc;
      route();
    } else if (kind === 'case' || kind === 'run') {
      store[kind].set(key, doc);
    }
  };

  // A case's or run's data file, loaded by a script tag (fetch() of a file:// URL fails in Chromium).
  function load(kind, key) {
    if (store[kind].has(key)) return Promise.resolve(store[kind].get(key));
    if (!/^[0-9a-f]{16}$/.test(key)) return Promise.reject(new Error('bad data key'));
    return new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = 'data/' + kind + '/' + key + '.js';
      script.onload = () => (store[kind].has(key) ? resolve(store[kind].get(key)) : reject(new Error(script.src + ' held no data')));
      script.onerror = () => reject(new Error(script.src + ' could not be loaded'));
      document.head.appendChild(script);
    });
  }

  // ---- text: every data string goes through show() ----
  // Control characters and bidirectional overrides shown as escapes, so they are seen, not obeyed.
  const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
  function show(value) {
    if (value === null || value === undefined) return '';
    return String(value).replace(HIDDEN, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
  }

  // el('a', {href: ..., class: ...}, child...): children are nodes or strings (text nodes).
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') e.className = v;
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v);
    }
    for (const c of children.flat(Infinity)) {
      if (c === null || c === undefined || c === false) continue;
      e.append(c instanceof Node ? c : document.createTextNode(show(c)));
    }
    return e;
  }
  const caseLink = (id) => '#/case/' + encodeURIComponent(id);
  const runLink = (id) => '#/run/' + encodeURIComponent(id);

  function pct(v, digits) {
    if (v === null || v === undefined || !isFinite(v)) return '';
    const d = digits === undefined ? (Math.abs(v) < 1 ? 2 : 1) : digits;
    return (v >= 0 ? '+' : '') + v.toFixed(d) + '%';
  }
  function interval(c) {
    const i = c.interval_pct;
    return i ? ' [' + pct(i[0]) + ', ' + pct(i[1]) + ']' : '';
  }
  function value(metric, v) {
    if (v === null || v === undefined || !isFinite(v)) return '';
    if (metric !== 'latency_ns') return Number(v.toPrecision(4)).toString();
    const units = [[1e9, 's'], [1e6, 'ms'], [1e3, 'µs'], [1, 'ns']];
    for (const [scale, unit] of units) if (Math.abs(v) >= scale || scale === 1) return Number((v / scale).toPrecision(4)) + ' ' + unit;
    return '';
  }
  const shortSha = (sha) => show(sha).slice(0, 10);
  function commitRange(x) {
    const before = x.commit_before || x.run_before, after = x.commit_after || x.run_after;
    return before ? shortSha(before) + '..' + shortSha(after) : 'up to ' + shortSha(after);
  }
  const shortDevice = (d) => (d.length > 14 ? d.slice(0, 12) + '…' : d);
  const STATE_TEXT = { open: 'open', 'not-gated': 'not gated', acknowledged: 'acknowledged', improved: 'improved', unchanged: 'unchanged', improvement: 'improvement' };
  const badge = (state) => el('span', { class: 'badge state-' + state }, STATE_TEXT[state] || state);

  // What has been done about a change or an item: acknowledged by NAME: REASON, bisected to COMMIT
  // (+x%), alerted, recovered.
  function triage(x) {
    const parts = [];
    const acks = x.acknowledged && Array.isArray(x.acknowledged) ? x.acknowledged : x.acknowledgement ? [x.acknowledgement] : [];
    for (const a of acks) parts.push(el('span', { class: 'ack' }, 'acknowledged by ', el('b', {}, a.by), ': ', a.reason));
    const bisected = x.bisected || x.bisected_to || [];
    for (const b of bisected)
      parts.push(el('span', { class: 'bisected' }, 'bisected to ', el('code', {}, (b.exact === false ? 'one of ..' : '') + shortSha(b.sha)),
        ', ' + pct(b.change_pct), b.subject ? el('span', { class: 'subject' }, ' “', b.subject, '”') : null));
    if (x.alerted) parts.push(el('span', { class: 'alerted' }, 'alerted'));
    if (x.recovered) parts.push(el('span', { class: 'recovered' }, 'recovered'));
    if (x.not_gated) parts.push(el('span', { class: 'not-gated' }, 'not gated: ', x.not_gated));
    return el('span', { class: 'triage' }, parts.map((p, i) => (i ? [' · ', p] : p)));
  }

  function setView(title, where, ...nodes) {
    for (const c of charts) c.destroy();
    charts = [];
    document.title = title + ' · perfgate dashboard';
    const nodesOf = (list) => list.flat(Infinity).filter((n) => n !== null && n !== undefined && n !== false)
      .map((n) => (n instanceof Node ? n : document.createTextNode(show(n))));
    document.getElementById('where').replaceChildren(...nodesOf(where || []));
    document.getElementById('view').replaceChildren(...nodesOf(nodes));
    window.scrollTo(0, 0);
  }

  // ---- the front page ----
  const STATE_ORDER = ['open', 'not-gated', 'acknowledged', 'improved', 'unchanged'];

  function itemView(item, index) {
    const worst = item.worst;
    const drift = worst.kind === 'drift';
    const runAfter = item.run_after;
    return el('article', { class: 'item state-' + item.state, 'data-item': String(index) },
      el('div', { class: 'item-head' }, badge(item.state), ' ',
        el('span', { class: 'kind' }, item.kinds.join(' and ')), ' in ',
        el('code', { class: 'range' }, commitRange(item)),
        item.started_at ? el('span', { class: 'when' }, ' from ', item.started_at) : null),
      el('div', { class: 'item-what' },
        el('b', {}, item.cases + (item.cases === 1 ? ' case' : ' cases')), ', worst ',
        el('a', { href: caseLink(worst.case) }, worst.case),
        ' ', el('span', { class: 'change' }, pct(worst.change_pct) + (drift ? ' (drift allowed ' + pct(worst.allowed_pct) + ')' : interval(worst)))),
      el('div', { class: 'item-where' }, 'on ', item.machines.map((m, i) => [i ? ', ' : '', el('span', { class: 'machine' }, m)]),
        item.devices.length ? [' · devices ', item.devices.map((d, i) => [i ? ', ' : '', el('code', { title: show(d) }, shortDevice(show(d)))])] : null,
        runAfter ? [' · first run after: ', el('a', { href: runLink(runAfter) }, runAfter)] : null),
      el('div', { class: 'item-state' }, triage(item)),
      item.entries.length > 1 ? el('details', {}, el('summary', {}, 'every step and drift of this range (' + item.entries.length + ')'),
        el('table', { class: 'entries' }, item.entries.map((e) => el('tr', {},
          el('td', {}, e.kind), el('td', { class: 'case' }, el('a', { href: caseLink(e.case) }, e.case)), el('td', {}, e.machine),
          el('td', { class: 'num' }, pct(e.change_pct)), el('td', {}, badge(e.state)), el('td', {}, triage(e)))))) : null);
  }

  function sparkline(values) {
    const ns = 'http://www.w3.org/2000/svg', w = 120, h = 22;
    const svg = document.createElementNS(ns, 'svg');
    svg.setAttribute('width', w); svg.setAttribute('height', h); svg.setAttribute('class', 'spark');
    if (values.length > 1) {
      const lo = Math.min(...values), hi = Math.max(...values), span = hi - lo || 1;
      const line = document.createElementNS(ns, 'polyline');
      line.setAttribute('points', values.map((v, i) => (i * (w - 2) / (values.length - 1) + 1).toFixed(1) + ',' + (h - 2 - (v - lo) / span * (h - 4)).toFixed(1)).join(' '));
      svg.append(line);
    }
    return svg;
  }

  function seriesRow(c, s) {
    return el('tr', { class: 'series state-' + s.state },
      el('td', { class: 'case' }, el('a', { href: caseLink(c.id) }, c.id)),
      el('td', { class: 'machine' }, s.machine),
      el('td', {}, s.devices.length > 1 ? s.devices.length + ' devices' : s.devices.length ? shortDevice(show(s.devices[0])) : ''),
      el('td', {}, badge(s.state)),
      el('td', {}, sparkline(s.trend)),
      el('td', { class: 'num' }, value(s.metric, s.newest)),
      el('td', { class: 'num' }, s.vs_best_pct ? pct(s.vs_best_pct) : ''),
      el('td', { class: 'num' }, String(s.runs)));
  }

  // ---- which devices of a machine id are judged at their own level (judge/device_calibration.h) ----
  const LEVEL_TEXT = { baseline: 'the baseline\'s runs', placed: 'placed by its runs', 'not-yet': 'not yet' };
  const one = (kind) => (kind === 'GPUs' ? 'GPU' : 'host');
  const counted = (n, kind) => n + ' ' + (n === 1 ? one(kind) : kind);

  // The front page: per machine id, how many of its devices every case they ran calibrates.
  function machineCalibration(m) {
    return el('div', { class: 'machine-calibration', 'data-machine': show(m.machine) },
      el('h2', {}, el('span', { class: 'machine' }, m.machine), ': ',
        el('span', { class: 'calibrated-count' }, m.calibrated + ' of ' + counted(m.devices.length, m.devices_are) + ' calibrated')),
      el('table', { class: 'devices' },
        el('tr', {}, [one(m.devices_are), 'calibrated in', 'level from', 'not yet, and what places it'].map((h) => el('th', {}, h))),
        m.devices.map((d) => el('tr', { class: 'device ' + (d.not_yet_cases ? 'level-not-yet' : 'level-calibrated') },
          el('td', {}, el('code', { title: show(d.device) }, shortDevice(show(d.device)))),
          el('td', { class: 'num' }, d.calibrated_cases + ' of ' + d.cases + (d.cases === 1 ? ' case' : ' cases')),
          el('td', {}, [d.baseline_cases ? 'the baseline\'s runs (' + d.baseline_cases + ')' : null,
            d.placed_cases ? 'its own runs (' + d.placed_cases + ')' : null].filter(Boolean).join(', ')),
          el('td', { class: 'why' }, d.not_yet.map((n, i) => [i ? el('br') : null, el('a', { href: caseLink(n.case) }, n.case), ': ', n.why]),
            d.not_yet_cases > d.not_yet.length ? [el('br'), 'and ' + (d.not_yet_cases - d.not_yet.length) + ' more cases'] : null)))));
  }

  // A case's page: each device of the machine, how its level is known or what places it.
  function caseCalibration(c) {
    const level = (d) => (d.baseline ? 'baseline' : d.placed ? 'placed' : 'not-yet');
    return el('div', { class: 'calibration' },
      el('p', { class: 'calibrated-count' }, el('b', {}, c.calibrated + ' of ' + counted(c.devices.length, c.devices_are) + ' calibrated'),
        ': judged at their own level, measured by the baseline\'s runs or placed by ' + c.runs_needed + ' of their own gated runs at its kernel source and driver'),
      el('table', { class: 'devices' },
        el('tr', {}, [one(c.devices_are), 'runs in the history', 'runs that count', 'level', 'how it is known, or what places it'].map((h) => el('th', {}, h))),
        c.devices.map((d) => el('tr', { class: 'device level-' + level(d) },
          el('td', {}, el('code', { title: show(d.device) }, shortDevice(show(d.device)))),
          el('td', { class: 'num' }, String(d.runs)),
          el('td', { class: 'num' }, d.baseline ? '' : d.offset_runs + ' of ' + c.runs_needed),
          el('td', {}, el('span', { class: 'badge level-' + level(d) }, LEVEL_TEXT[level(d)]),
            d.placed ? ' ' + pct(d.offset_pct) + ' ±' + pct(d.bound_pct).replace('+', '') : null),
          el('td', { class: 'why' }, d.why)))));
  }

  function frontPage(params) {
    const index = store.index;
    const all = [];
    for (const c of index.cases) for (const s of c.series) all.push([c, s]);
    const options = {
      machine: [...new Set(all.map(([, s]) => s.machine))].sort(),
      device: [...new Set(all.flatMap(([, s]) => s.devices))].sort(),
      kernel: [...new Set(all.map(([c]) => c.kernel))].sort(),
      backend: [...new Set(all.map(([c]) => c.backend))].sort(),
      state: STATE_ORDER.filter((st) => all.some(([, s]) => s.state === st)),
    };
    const chosen = {};
    for (const k of Object.keys(options)) chosen[k] = params.get(k) || '';
    const keep = ([c, s]) => (!chosen.machine || s.machine === chosen.machine) && (!chosen.device || s.devices.includes(chosen.device)) &&
      (!chosen.kernel || c.kernel === chosen.kernel) && (!chosen.backend || c.backend === chosen.backend) && (!chosen.state || s.state === chosen.state);
    const shown = all.filter(keep);
    shown.sort((a, b) => STATE_ORDER.indexOf(a[1].state) - STATE_ORDER.indexOf(b[1].state));
    const filters = el('form', { class: 'filters', id: 'filters' }, Object.keys(options).map((k) =>
      el('label', {}, k + ' ', el('select', {
        name: k, onchange: (ev) => {
          const p = new URLSearchParams(params);
          if (ev.target.value) p.set(k, ev.target.value); else p.delete(k);
          location.hash = '#/' + (p.toString() ? '?' + p.toString() : '');
        },
      }, el('option', { value: '' }, 'all'), options[k].map((o) => el('option', { value: show(o), selected: o === chosen[k] ? 'selected' : null }, k === 'device' ? shortDevice(show(o)) : o))))));
    const head = () => el('tr', {}, ['case', 'machine', 'device', 'state', 'trend', 'newest', 'vs best', 'runs'].map((h) => el('th', {}, h)));
    const changed = shown.filter(([, s]) => s.state !== 'unchanged');
    const unchanged = shown.filter(([, s]) => s.state === 'unchanged');
    const folded = el('details', { class: 'folded', id: 'unchanged' }, el('summary', {}, unchanged.length + ' unchanged series (no change point, no drift)'));
    folded.addEventListener('toggle', () => {
      if (folded.open && folded.children.length === 1) folded.append(el('table', { class: 'series-table' }, head(), unchanged.map(([c, s]) => seriesRow(c, s))));
    }, { once: false });
    const machines = new Set(index.runs.flatMap((r) => r.machines));
    const items = index.items;
    const open = items.filter((i) => i.state === 'open').length;
    setView('What needs attention', [],
      el('p', { class: 'summary' }, index.runs.length + ' runs on ' + machines.size + (machines.size === 1 ? ' machine' : ' machines') + ', ' +
        index.cases.length + ' cases, ' + all.length + ' series; ' + open + ' open of ' + items.length + ' regressions and drifts'),
      el('section', { id: 'attention' }, el('h1', {}, 'What needs attention'),
        items.length ? items.map(itemView) : el('p', {}, 'No regression change point and no drift in this history.')),
      index.calibration.length ? el('section', { id: 'calibration' }, el('h1', {}, 'Devices calibrated'),
        el('p', { class: 'note' }, 'Per machine id, the GPUs (where the host keeps the time, the hosts) that every case they ran with an approved baseline judges at their own level: the baseline\'s runs measured them, or ' + index.calibration[0].runs_needed + ' of their own gated runs at its kernel source and driver placed them. A check on another is judged against a bound on its level, and a change within it is named, neither passed nor failed.'),
        index.calibration.map(machineCalibration)) : null,
      el('section', { id: 'cases' }, el('h1', {}, 'Every case'), filters,
        el('p', { class: 'count' }, shown.length + ' of ' + all.length + ' series' + (unchanged.length ? ', ' + unchanged.length + ' unchanged folded below' : '')),
        changed.length ? el('table', { class: 'series-table' }, head(), changed.map(([c, s]) => seriesRow(c, s))) : null,
        unchanged.length ? folded : null));
  }

  // ---- a case ----
  const PALETTE = ['#1f77b4', '#ff7f0e', '#2ca02c', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#bcbd22'];

  function chartFor(container, series, byTime) {
    const runs = store.index.runs;
    const pts = series.points; // [run index, value, spread, device index]
    const xs = pts.map((p, i) => (byTime ? Date.parse(runs[p[0]].started_at) / 1000 : i));
    const lines = series.devices.length > 1 ? series.devices.map((d, di) => pts.map((p) => (p[3] === di ? p[1] : null))) : [pts.map((p) => p[1])];
    const level = new Array(pts.length).fill(null);
    for (const [b, e, m] of series.segments) for (let i = b; i < e; ++i) level[i] = m;
    const base = series.baseline;
    const tooltip = el('div', { class: 'tooltip', hidden: 'hidden' });
    const markers = [];
    const plotSeries = [{}].concat(lines.map((_, i) => ({
      label: series.devices.length > 1 ? 'device ' + shortDevice(show(series.devices[i])) : 'median',
      stroke: PALETTE[i % PALETTE.length], width: 1, spanGaps: series.devices.length > 1,
      points: { show: pts.length < 300, size: 4 },
      value: (u, v) => value(series.metric, v),
    })), [{ label: 'segment level', stroke: '#444', width: 2, dash: [6, 3], points: { show: false }, value: (u, v) => value(series.metric, v) }]);
    const width = Math.max(320, container.clientWidth || 800);
    const opts = {
      width, height: 300,
      series: plotSeries,
      // The y range holds the baseline's band too, wherever the runs lie.
      scales: {
        x: { time: byTime },
        y: {
          range: (u, min, max) => {
            const lo = base ? Math.min(min, base.median) : min, hi = base ? Math.max(max, base.median * (1 + base.allowed_pct / 100)) : max;
            const pad = (hi - lo) * 0.05 || Math.abs(hi) * 0.01 || 1;
            return [lo - pad, hi + pad];
          },
        },
      },
      axes: [{ label: byTime ? 'run start (UTC)' : 'run, in commit order' }, { label: series.metric === 'latency_ns' ? 'median latency' : 'median ' + series.metric, size: 70, values: (u, ticks) => ticks.map((t) => value(series.metric, t)) }],
      legend: { show: true, live: false },
      cursor: { drag: { x: true, y: false } },
      hooks: {
        drawClear: [(u) => {
          if (!base) return;
          // The approved baseline's level, and the drift allowed above it, as a band.
          const ctx = u.ctx, top = u.valToPos(base.median * (1 + base.allowed_pct / 100), 'y', true), bottom = u.valToPos(base.median, 'y', true);
          ctx.save();
          ctx.fillStyle = 'rgba(44, 160, 44, 0.13)';
          ctx.fillRect(u.bbox.left, Math.min(top, bottom), u.bbox.width, Math.max(1, Math.abs(bottom - top)));
          ctx.strokeStyle = 'rgba(44, 160, 44, 0.8)';
          ctx.beginPath(); ctx.moveTo(u.bbox.left, bottom); ctx.lineTo(u.bbox.left + u.bbox.width, bottom); ctx.stroke();
          ctx.restore();
        }],
        draw: [(u) => {
          // Change points: a line at the first run after each step, and a marker (an element, so it is seen and found).
          const ctx = u.ctx;
          series.changes.forEach((c, i) => {
            const x = u.valToPos(xs[c.run_index], 'x', true);
            ctx.save();
            ctx.strokeStyle = c.state === 'open' ? '#d62728' : '#999';
            ctx.setLineDash([3, 3]); ctx.lineWidth = 2;
            ctx.beginPath(); ctx.moveTo(x, u.bbox.top); ctx.lineTo(x, u.bbox.top + u.bbox.height); ctx.stroke();
            ctx.restore();
            markers[i].style.left = u.valToPos(xs[c.run_index], 'x') + 'px';
          });
        }],
        setCursor: [(u) => {
          const i = u.cursor.idx;
          if (i === null || i === undefined || u.cursor.left < 0) { tooltip.hidden = true; return; }
          const p = pts[i], run = runs[p[0]];
          tooltip.replaceChildren(el('b', {}, run.id), el('br'), 'commit ', el('code', {}, shortSha(run.commit)), el('br'),
            'median ', value(series.metric, p[1]), ' ± ', value(series.metric, p[2]), series.devices.length > 1 ? [el('br'), 'device ', shortDevice(show(series.devices[p[3]]))] : null,
            el('br'), el('span', { class: 'hint' }, 'click: this run'));
          tooltip.hidden = false;
          tooltip.style.left = Math.min(u.cursor.left + 12, u.over.clientWidth - 200) + 'px';
          tooltip.style.top = Math.max(0, u.cursor.top - 60) + 'px';
        }],
      },
    };
    series.changes.forEach((c) => {
      const m = el('a', { class: 'cp-marker state-' + c.state, href: '#cp', 'data-change': c.change_id, 'data-run-index': String(c.run_index), title: show(c.change_id) }, pct(c.change_pct));
      m.addEventListener('click', (ev) => { ev.preventDefault(); document.getElementById('change-' + c.change_id)?.scrollIntoView(); });
      markers.push(m);
    });
    const u = new uPlot(opts, [xs, ...lines, level], container);
    u.over.append(tooltip, ...markers);
    u.over.addEventListener('click', (ev) => {
      if (ev.target.closest('.cp-marker')) return;
      const i = u.cursor.idx;
      if (i !== null && i !== undefined) location.hash = runLink(runs[pts[i][0]].id);
    });
    charts.push(u);
    return u;
  }

  function changesTable(series) {
    if (!series.changes.length) return el('p', { class: 'note' }, 'No change point in ' + series.points.length + ' runs.');
    const runs = store.index.runs;
    return el('table', { class: 'changes' },
      el('tr', {}, ['change point', 'first run after', 'commits', 'before', 'after', 'change [interval]', 'state'].map((h) => el('th', {}, h))),
      series.changes.map((c) => el('tr', { id: 'change-' + c.change_id },
        el('td', {}, el('code', {}, c.change_id)),
        el('td', {}, el('a', { href: runLink(c.run_after) }, c.run_after)),
        el('td', {}, el('code', {}, commitRange(c))),
        el('td', { class: 'num' }, value(series.metric, c.median_before)),
        el('td', { class: 'num' }, value(series.metric, c.median_after)),
        el('td', { class: 'num' }, pct(c.change_pct) + interval(c)),
        el('td', {}, badge(c.state), c.known_boundary ? ' (new ' + c.known_boundary + ')' : '', ' ', triage(c)))));
  }

  function casePage(id, params) {
    const entry = store.index.cases.find((c) => c.id === id);
    if (!entry) return notFound('No case ' + show(id) + ' in this history.');
    const byTime = params.get('x') === 'time';
    setView(id, [' › case'], el('p', {}, 'Loading the case\'s data …'));
    load('case', entry.key).then((doc) => {
      const toggle = el('p', { class: 'axis' }, 'x axis: ',
        el('a', { href: caseLink(id), class: byTime ? '' : 'chosen' }, 'commit order'), ' · ',
        el('a', { href: caseLink(id) + '?x=time', class: byTime ? 'chosen' : '' }, 'time'));
      const sections = doc.series.map((s) => {
        const chart = el('div', { class: 'chart' });
        const base = s.baseline;
        const d = s.drift;
        return el('section', { class: 'machine-series', 'data-machine': show(s.machine) },
          el('h2', {}, s.machine, ' ', badge(s.state)),
          el('p', { class: 'meta' }, s.points.length + ' runs of ' + s.metric,
            s.devices.length > 1 ? ' on ' + s.devices.length + ' devices (a line each)' : '',
            ' · newest segment ' + pct(d.vs_best_pct) + ' vs the best', base ? ', ' + pct(d.vs_reference_pct) + ' vs the baseline' : '',
            ' (drift allowed ' + pct(d.allowed_pct) + ', noise ' + pct(d.noise_pct).replace('+', '') + ')',
            d.fails ? el('b', { class: 'fails' }, ' drift fails the gate: ', el('code', {}, d.id)) : null,
            d.acknowledged ? el('span', {}, ' drift acknowledged by ', el('b', {}, d.acknowledged.by), ': ', d.acknowledged.reason) : null,
            d.not_gated && d.exceeded ? ' drift not gated: ' + show(d.not_gated) : ''),
          base ? el('p', { class: 'baseline' }, 'approved baseline ', value(s.metric, base.median), ', drift allowed to ', value(s.metric, base.median * (1 + base.allowed_pct / 100)), ' (the band)',
            base.approved ? [' · approved by ', el('b', {}, base.approved.by), ': ', base.approved.reason, ' (', base.approved.time, ')'] : null)
            : el('p', { class: 'baseline' }, 'no approved baseline for this machine'),
          s.calibration ? caseCalibration(s.calibration) : null,
          chart, changesTable(s));
      });
      setView(id, [' › case ', el('code', {}, id)], el('h1', { class: 'case-title' }, id),
        el('p', { class: 'meta' }, 'kernel ', el('b', {}, doc.kernel), ' · backend ', el('b', {}, doc.backend), ' · ' + doc.series.length + ' machine' + (doc.series.length === 1 ? '' : 's')),
        toggle, sections);
      doc.series.forEach((s, i) => chartFor(sections[i].querySelector('.chart'), s, byTime));
      document.body.dataset.view = 'case';
    }, (err) => notFound(err.message));
  }

  // ---- a run ----
  function why(row, metric) {
    const [, , verdict, , , median, , vsBase, allowed, , starts] = row;
    const parts = [verdict + ': median ' + value(metric, median)];
    if (vsBase !== null) parts.push(pct(vsBase) + ' vs the approved baseline (drift allowed ' + pct(allowed) + ')');
    else parts.push('no approved baseline on this machine');
    return parts.join(', ') + (starts ? '; the first run after step ' : '');
  }

  function runPage(id) {
    const run = store.index.runs.find((r) => r.id === id);
    if (!run) return notFound('No run ' + show(id) + ' in this history.');
    setView(id, [' › run'], el('p', {}, 'Loading the run\'s data …'));
    load('run', run.key).then((doc) => {
      const cases = store.index.cases;
      const rows = doc.rows.slice().sort((a, b) => a[3] - b[3] || (b[7] ?? -1e9) - (a[7] ?? -1e9));
      const count = {};
      for (const r of rows) count[r[2]] = (count[r[2]] || 0) + 1;
      setView(id, [' › run ', el('code', {}, id)], el('h1', {}, 'Run ', el('code', {}, id)),
        el('p', { class: 'meta' }, 'commit ', el('code', {}, run.commit), run.branches.length ? [' on ', run.branches.map((b, i) => [i ? ', ' : '', el('b', { class: 'branch' }, b)])] : null,
          ' · started ', run.started_at, ' · ', run.machines.map((m, i) => [i ? ', ' : '', el('span', { class: 'machine' }, m)])),
        el('p', { class: 'summary' }, Object.entries(count).map(([v, n]) => n + ' ' + v).join(', ')),
        el('table', { class: 'verdicts' },
          el('tr', {}, ['case', 'machine', 'verdict', 'median ± spread', 'vs baseline', 'why'].map((h) => el('th', {}, h))),
          rows.map((r) => {
            const c = cases[r[0]];
            return el('tr', { class: 'verdict-' + r[2] },
              el('td', { class: 'case' }, el('a', { href: caseLink(c.id) }, c.id)),
              el('td', { class: 'machine' }, r[1]),
              el('td', {}, el('span', { class: 'badge verdict-' + r[2] }, r[2])),
              el('td', { class: 'num' }, value(r[4], r[5]) + ' ± ' + value(r[4], r[6])),
              el('td', { class: 'num' }, r[7] === null ? '' : pct(r[7])),
              el('td', { class: 'why' }, why(r, r[4]), r[10] ? el('a', { href: caseLink(c.id) }, el('code', {}, r[10])) : null));
          })),
        el('p', { class: 'note' }, 'The history keeps each case\'s verdict and median; the check\'s own lines are in the run\'s report (perfgate report RESULTS.json).'));
      document.body.dataset.view = 'run';
    }, (err) => notFound(err.message));
  }

  function notFound(text) {
    setView('Not found', [], el('h1', {}, 'Not found'), el('p', {}, text), el('p', {}, el('a', { href: '#/' }, 'the front page')));
    document.body.dataset.view = 'missing';
  }

  function route() {
    if (!store.index) return;
    const hash = location.hash || '#/';
    const q = hash.indexOf('?');
    const path = q < 0 ? hash : hash.slice(0, q);
    const params = new URLSearchParams(q < 0 ? '' : hash.slice(q + 1));
    let id;
    try {
      if (path.startsWith('#/case/')) id = decodeURIComponent(path.slice(7));
      else if (path.startsWith('#/run/')) id = decodeURIComponent(path.slice(6));
    } catch (e) {
      return notFound('The address holds a malformed id.');
    }
    document.body.dataset.view = 'loading';
    if (path.startsWith('#/case/')) casePage(id, params);
    else if (path.startsWith('#/run/')) runPage(id);
    else { frontPage(params); document.body.dataset.view = 'front'; }
  }

  window.addEventListener('hashchange', route);
  let resizing = null;
  window.addEventListener('resize', () => {
    clearTimeout(resizing);
    resizing = setTimeout(() => { for (const u of charts) u.setSize({ width: Math.max(320, u.root.parentNode.clientWidth), height: 300 }); }, 100);
  });
})();
