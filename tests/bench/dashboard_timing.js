// Times a dashboard site in headless Chromium (tests/bench/dashboard_scale.sh): the front page
// until it is interactive (its lists drawn and its filters answering), and a case page from its
// link to its charts drawn, each the median of REPEAT fresh loads. A benchmark, not a test.
//   NODE_PATH=.../node_modules node dashboard_timing.js SITE [REPEAT]
'use strict';
const path = require('path');
const os = require('os');
const fs = require('fs');
const { chromium } = require('playwright-core');

const site = 'file://' + path.resolve(process.argv[2]) + '/index.html';
const repeat = Number(process.argv[3] || 5);
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];

(async () => {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'dashboard-timing-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium', headless: true, viewport: { width: 1366, height: 900 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  const page = context.pages()[0];
  const front = [], casePage = [];
  let caseId = '';
  for (let i = 0; i < repeat; ++i) {
    await page.goto('about:blank');
    await page.goto(site);
    await page.waitForSelector('body[data-view="front"] #cases table');
    // Interactive: the filters answer (a change of the state filter redraws the list).
    front.push(await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(performance.now())))));
    caseId = await page.evaluate(() => document.querySelector('article.item .item-what a').textContent);
    const ms = await page.evaluate(() => new Promise((resolve) => {
      const t0 = performance.now();
      new MutationObserver((_, obs) => {
        if (document.body.dataset.view === 'case' && document.querySelector('.chart .u-over')) {
          obs.disconnect();
          requestAnimationFrame(() => resolve(performance.now() - t0));
        }
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
      document.querySelector('article.item .item-what a').click();
    }));
    casePage.push(ms);
  }
  console.log(JSON.stringify({ front_interactive_ms: Math.round(median(front)), case_page_ms: Math.round(median(casePage)),
    case: caseId, front_all_ms: front.map(Math.round), case_all_ms: casePage.map(Math.round) }));
  await context.close();
  fs.rmSync(profile, { recursive: true, force: true });
})().catch((e) => { console.error(e); process.exit(1); });
