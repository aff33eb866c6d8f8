// The dashboard in a real browser (tests/e2e/dashboard_site.sh makes the site): Debian's Chromium
// driven by playwright-core, from file://, with every request that is not a file of the site
// refused and counted. Prints one line per check; exits 1 on the first that fails.
'use strict';
const path = require('path');
const { chromium } = require('playwright-core');

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
// What the page shows for a string: control characters as \uXXXX escapes (dashboard.js, show()).
const shown = (s) => s.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
const fail = (what) => { throw new Error(what); };
const ok = (what) => console.log('ok: ' + what);

async function noOverflow(page, what) {
  const problems = await page.evaluate(() => {
    const width = document.documentElement.clientWidth, out = [];
    if (document.documentElement.scrollWidth > width) out.push('page scrolls sideways: ' + document.documentElement.scrollWidth + ' > ' + width);
    for (const e of document.body.querySelectorAll('*')) {
      const r = e.getBoundingClientRect();
      if (r.width > 0 && r.right > width + 1 && !e.closest('.u-over, .tooltip')) out.push(e.tagName + '.' + e.className + ' ends at ' + Math.round(r.right));
    }
    return out.slice(0, 5);
  });
  if (problems.length) fail(what + ' overflows: ' + problems.join('; '));
  ok(what + ': nothing overflows');
}

async function nothingInjected(page, what) {
  const found = await page.evaluate(() => ({
    pwned: window.__pwned,
    scripts: [...document.querySelectorAll('script')].map((s) => s.getAttribute('src')).filter((src) => !/^(assets|data)\//.test(src || '')),
    handlers: document.querySelectorAll('[onerror], [onload], [onmouseover], [onclick]').length,
    planted: document.querySelectorAll('main img, main svg[onload], main b[onmouseover], header img').length,
  }));
  if (found.pwned !== undefined) fail(what + ': a planted script ran (' + found.pwned + ')');
  if (found.scripts.length) fail(what + ': a script element not of the site: ' + found.scripts.join(', '));
  if (found.handlers || found.planted) fail(what + ': a planted element or handler is in the page');
  ok(what + ': no planted script ran, no element injected');
}

async function hasText(page, text, what) {
  const body = await page.evaluate(() => document.body.innerText);
  if (!body.includes(text)) fail(what + ': the page does not show ' + JSON.stringify(text));
  ok(what + ' shown as text');
}

async function main() {
  const site = 'file://' + path.resolve(args.site) + '/index.html';
  const context = await chromium.launchPersistentContext(args.profile, {
    executablePath: args.chromium, headless: true, viewport: { width: 1366, height: 900 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  const outside = [], errors = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file://' + path.resolve(args.site) + '/')) return route.continue();
    outside.push(url);
    return route.abort();
  });
  const page = context.pages()[0] || (await context.newPage());
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('dialog', (d) => { errors.push('a dialog opened: ' + d.message()); d.dismiss(); });
  const view = (name) => page.waitForSelector('body[data-view="' + name + '"]', { timeout: 60000 });

  // The front page: the planted step is one item, with its range, both machines and its state.
  await page.goto(site);
  await view('front');
  const items = await page.$$eval('article.item', (all) => all.map((a) => ({
    range: a.querySelector('.range').textContent, state: a.querySelector('.badge').textContent,
    text: a.innerText, cases: [...a.querySelectorAll('.item-what a')].map((x) => x.textContent),
  })));
  const copy = items.filter((i) => i.range === args['copy-range']);
  if (copy.length !== 1) fail('the copy step is ' + copy.length + ' items, want one: ' + JSON.stringify(items.map((i) => i.range)));
  if (copy[0].state !== 'open' || !copy[0].cases.includes('copy/cpu/n=4096')) fail('the copy item: ' + JSON.stringify(copy[0]));
  if (!copy[0].text.includes(args.machine) || !/2 machines|, /.test(copy[0].text.split('\n').find((l) => l.startsWith('on ')) || ''))
    fail('the copy item does not name both machines: ' + copy[0].text);
  ok('the planted step is one open item for ' + args['copy-range'] + ' across both machines');
  const acked = items.find((i) => i.cases.some((c) => c.startsWith('triad/')));
  if (!acked || acked.state !== 'acknowledged') fail('the triad item is not acknowledged: ' + JSON.stringify(acked));
  if (!acked.text.includes('acknowledged by ' + shown(args['hostile-by']) + ': ' + shown(args['hostile-reason'])))
    fail('the triad item does not say who acknowledged it and why: ' + acked.text);
  ok('the acknowledged step shows its state, by whom and why');
  const bisected = items.find((i) => i.cases.some((c) => c.startsWith('rmsnorm/cpu/n=')));
  if (!bisected || !bisected.text.includes('bisected to ' + args.bisected + ', +15.2%') || !bisected.text.includes(shown(args['hostile-subject'])))
    fail('the rmsnorm item does not show its bisection: ' + JSON.stringify(bisected));
  ok('the bisected step shows its commit, change and subject');
  // How many hosts of this machine id are calibrated: its baseline's own and host-b (5 runs at the
  // baseline's source); host-c is 3 runs short; host-d's runs are at another source.
  const machineCal = page.locator('section#calibration div.machine-calibration').filter({ has: page.locator('h2', { hasText: args.machine }) });
  if ((await machineCal.count()) !== 1) fail('the front page has no calibration of ' + args.machine);
  const calHead = await machineCal.locator('h2').innerText();
  if (!calHead.includes('2 of 4 hosts calibrated')) fail('the front page says of ' + args.machine + ': ' + calHead);
  const hostC = await machineCal.locator('tr.device', { has: page.locator('code', { hasText: 'host-c' }) }).innerText();
  if (!hostC.includes('0 of 1 case') || !hostC.includes(args['calibrated-case'] + ': 3 more runs of this host at the baseline\'s kernel source'))
    fail('the front page\'s row of host-c: ' + hostC);
  ok('the front page says "' + calHead + '", and what places host-c');
  // Unchanged series are folded: the hostile case's (unchanged) is not in the page until opened.
  if (await page.locator('details#unchanged').evaluate((d) => d.open || d.querySelector('table') !== null)) fail('the unchanged series are not folded');
  await page.click('details#unchanged > summary');
  await page.waitForSelector('details#unchanged table tr.series');
  ok('the unchanged series are folded, and open on a click');
  await hasText(page, shown(args['hostile-case']), 'the hostile case id (front page)');
  await nothingInjected(page, 'front page');
  await page.screenshot({ path: path.join(args.shots, 'dashboard-front.png'), fullPage: true });
  for (const width of [1366, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await noOverflow(page, 'front page at ' + width + ' px');
  }
  await page.setViewportSize({ width: 1366, height: 900 });
  // Unchanged series are folded; the filter narrows the list and is a permalink.
  await page.selectOption('select[name="state"]', 'acknowledged');
  await page.waitForFunction(() => location.hash.includes('state=acknowledged'));
  const states = await page.$$eval('table.series-table tr.series .badge', (b) => b.map((x) => x.textContent));
  if (!states.length || states.some((s) => s !== 'acknowledged')) fail('the state filter shows ' + JSON.stringify(states));
  ok('the state filter keeps the acknowledged series only (' + states.length + ')');
  await page.goto(site);
  await view('front');

  // A click on the open item's case reaches the case page, whose plot marks the step at run 30.
  await page.click('article.item:has(code.range:text-is("' + args['copy-range'] + '")) .item-what a');
  await view('case');
  const section = page.locator('section.machine-series').filter({ has: page.locator('h2', { hasText: args.machine }) });
  const marker = section.locator('.cp-marker[data-run-index="30"]');
  if ((await marker.count()) !== 1) fail('the case page\'s plot does not mark the step at run 30');
  const box = await marker.boundingBox(), plot = await section.locator('.u-over').boundingBox();
  const expected = plot.x + (30 / 39) * plot.width;
  if (Math.abs(box.x + box.width / 2 - expected) > 6) fail('the step\'s marker is at x=' + (box.x + box.width / 2) + ', want ' + expected);
  ok('the case page marks the step at run 30 of ' + args.machine + ' (x ' + Math.round(box.x + box.width / 2) + ')');
  const bandNote = await section.locator('p.baseline').innerText();
  if (!bandNote.includes('approved by ' + shown(args['hostile-by']) + ': ' + shown(args['hostile-reason']))) fail('the baseline line: ' + bandNote);
  ok('the case page names the baseline\'s approval');
  for (const width of [1366, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(300); // the charts follow the window after 100 ms
    await noOverflow(page, 'case page at ' + width + ' px');
  }
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.waitForTimeout(300);
  await nothingInjected(page, 'case page');
  // Hover shows the run; a click opens it.
  await section.locator('.u-over').scrollIntoViewIfNeeded();
  const over = await section.locator('.u-over').boundingBox();
  await page.mouse.move(over.x + (35 / 39) * over.width, over.y + over.height / 2);
  const tip = section.locator('.tooltip');
  await tip.waitFor({ state: 'visible', timeout: 10000 });
  const tipText = await tip.innerText();
  if (!/20261125T0000\d\dZ-synth/.test(tipText) || !tipText.includes('median') || !tipText.includes('±')) fail('the hover shows ' + tipText);
  ok('hover shows run, commit, median and spread');
  await page.screenshot({ path: path.join(args.shots, 'dashboard-case.png'), fullPage: true });
  await page.mouse.click(over.x + (35 / 39) * over.width, over.y + over.height / 2);
  await view('run');
  ok('a click on the plot opens run ' + decodeURIComponent((await page.evaluate(() => location.hash)).slice(6)));

  // The front page's "first run after" reaches the run page: its verdicts, worst first, linked.
  await page.goto(site);
  await view('front');
  await page.click('article.item:has(code.range:text-is("' + args['copy-range'] + '")) .item-where a[href^="#/run/"]');
  await view('run');
  const rows = await page.$$eval('table.verdicts tr[class^="verdict-"]', (r) => r.map((x) => ({ cls: x.className, link: x.querySelector('td.case a').getAttribute('href') })));
  if (rows.length !== 6 || rows.some((r) => !r.link.startsWith('#/case/'))) fail('the run page rows: ' + JSON.stringify(rows));
  const why = await page.$$eval('table.verdicts td.why', (w) => w.map((x) => x.innerText));
  if (!why.some((w) => w.includes('vs the approved baseline') && w.includes('first run after step'))) fail('no row says why: ' + JSON.stringify(why));
  ok('the run page lists its 6 cases with why, each linked to its case page');
  await hasText(page, args['hostile-branch'], 'the hostile branch (run page)');
  await hasText(page, shown(args['hostile-case']), 'the hostile case id (run page)');
  await nothingInjected(page, 'run page');
  await page.screenshot({ path: path.join(args.shots, 'dashboard-run.png'), fullPage: true });
  for (const width of [1366, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await noOverflow(page, 'run page at ' + width + ' px');
  }

  // Against time: the same chart, the step marked at the time of run 30.
  await page.goto(site + '#/case/' + encodeURIComponent('copy/cpu/n=4096') + '?x=time');
  await view('case');
  if ((await page.locator('.axis a.chosen').textContent()) !== 'time' || (await page.locator('.cp-marker[data-run-index="30"]').count()) !== 2)
    fail('the case page against time does not mark the step on both machines');
  ok('the case page against time marks the step on both machines');

  // The calibrated case's page: each host, how its level is known or what places it.
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto(site + '#/case/' + encodeURIComponent(args['calibrated-case']));
  await view('case');
  const calSection = page.locator('section.machine-series').filter({ has: page.locator('h2', { hasText: args.machine }) });
  const calCount = await calSection.locator('p.calibrated-count').innerText();
  if (!calCount.startsWith('2 of 4 hosts calibrated')) fail('the case page says ' + calCount);
  const hosts = await calSection.locator('table.devices tr.device').evaluateAll((rows) => rows.map((r) => r.innerText));
  const row = (host) => hosts.find((h) => h.startsWith(host)) || '';
  if (hosts.length !== 4 || !/placed by its runs/.test(row('host-b')) || !/5 of 5/.test(row('host-b')) ||
      !/2 of 5\s+not yet/.test(row('host-c')) || !/0 of 5\s+not yet.*4 at another kernel source/.test(row('host-d')))
    fail('the case page\'s hosts: ' + JSON.stringify(hosts));
  ok('the case page of ' + args['calibrated-case'] + ' says "' + calCount.split(':')[0] + '", host by host');
  await noOverflow(page, 'the calibrated case\'s page at 1366 px');
  await calSection.screenshot({ path: path.join(args.shots, 'dashboard-calibration.png') });

  // A permalink to the hostile case opens its page, titled with the id as text.
  await page.goto(site + '#/case/' + encodeURIComponent(args['hostile-case']));
  await view('case');
  const title = await page.locator('h1.case-title').textContent();
  if (title !== shown(args['hostile-case'])) fail('the hostile case page is titled ' + JSON.stringify(title));
  await nothingInjected(page, 'the hostile case\'s page');
  ok('a permalink to the hostile case opens its page');

  if (outside.length) fail('requests outside the site: ' + outside.join(', '));
  ok('nothing fetched from outside the site');
  if (errors.length) fail('page errors: ' + errors.join('; '));
  ok('no page error, no console error, no dialog');
  await context.close();
}

main().catch((e) => { console.error('FAIL: ' + e.message); process.exit(1); });
