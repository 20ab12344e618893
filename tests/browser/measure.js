#!/usr/bin/env node
// measure.js: open a hopsplit HTML report in Debian's headless Chromium
// (/usr/bin/chromium, driven by playwright-core, which downloads no
// browser) with the network off, and measure the rendered page the way a
// person would see it in a 1000 x 800 px window (SPEC 5 html, issue 15):
//
//   - nothing is fetched: every request other than the report itself is
//     aborted and counted, and the page has no script;
//   - nothing is wider than the window: no horizontal scroll of the page
//     and no element whose box sticks out past 1000 px or scrolls sideways
//     inside itself;
//   - the summary (#summary) is above the fold: it starts and ends in the
//     first 800 px and names every target, with a total in ms or s, the
//     top finding of each target that has one, and for a comparison each
//     target's verdict; a comparison has a chart (#comparison svg);
//   - no raw machine names are visible: no snake_case word, no "_us" or
//     "_ms" suffix, no column head that is not words, no bare integer of
//     four or more digits in a table cell (a duration or size without its
//     unit), no table row taller than 160 px;
//   - a profile run shows the profile's name and one PASS or FAIL per
//     check, each with its measured value.
//
// usage: node measure.js REPORT.html EXPECT.json OUT_PREFIX
//   EXPECT.json  {"targets": [names], "verdicts": {target: words},
//                 "findings": {target: title}, "profile": name or null,
//                 "checks": n}
//   OUT_PREFIX   screenshots OUT_PREFIX-first.png (the first screen) and
//                OUT_PREFIX-full.png (the whole page, 1000 px wide)
// Prints one JSON line of measurements, then one "FAIL: ..." line per
// property that does not hold; exits 1 if any, 2 on a usage error.
'use strict';

const fs = require('fs');
const path = require('path');

const WIDTH = 1000;
const FOLD = 800;

function usage(msg) {
  process.stderr.write('measure.js: ' + msg + '\n' +
    'usage: node measure.js REPORT.html EXPECT.json OUT_PREFIX\n');
  process.exit(2);
}

async function main() {
  const [report, expectFile, prefix] = process.argv.slice(2);
  if (!report || !expectFile || !prefix)
    usage('three arguments needed');
  const expect = JSON.parse(fs.readFileSync(expectFile, 'utf8'));
  let chromium;
  try {
    ({ chromium } = require('playwright-core'));
  } catch (e) {
    usage('playwright-core is not installed (scripts/test installs it)');
  }
  const exe = process.env.CHROMIUM || '/usr/bin/chromium';
  const browser = await chromium.launch({
    executablePath: exe,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
           '--disable-background-networking', '--disable-component-update',
           '--disable-sync', '--no-first-run', '--disable-quic',
           '--disable-extensions', '--mute-audio',
           // No name lookups at all: left alone, Chromium asks the
           // machine's resolver for update.googleapis.com,
           // accounts.google.com and clients2.google.com.
           '--host-resolver-rules=MAP * ~NOTFOUND'],
  });
  const failures = [];
  const fail = (m) => failures.push(m);
  try {
    const ctx = await browser.newContext({
      viewport: { width: WIDTH, height: FOLD }, offline: true,
      javaScriptEnabled: true, // for the measuring only: the page has none
    });
    const url = 'file://' + path.resolve(report);
    const fetched = [];
    await ctx.route('**/*', (route) => {
      const u = route.request().url();
      if (u === url)
        return route.continue();
      fetched.push(u);
      return route.abort();
    });
    const page = await ctx.newPage();
    await page.goto(url, { waitUntil: 'load' });
    const m = await page.evaluate(([W, FOLD]) => {
      const out = {};
      const de = document.documentElement;
      out.scrollWidth = de.scrollWidth;
      out.clientWidth = de.clientWidth;
      out.pageHeight = de.scrollHeight;
      out.scripts = document.querySelectorAll('script').length;
      out.external = [];
      for (const el of document.querySelectorAll('[src],[href],link'))
        out.external.push(el.outerHTML.slice(0, 120));
      // Elements that stick out of the window or scroll sideways inside.
      out.wide = [];
      for (const el of document.body.querySelectorAll('*')) {
        const r = el.getBoundingClientRect();
        if (!r.width && !r.height)
          continue;
        const name = el.tagName.toLowerCase() +
          (el.id ? '#' + el.id : '') +
          (el.className && typeof el.className === 'string'
            ? '.' + el.className.split(/\s+/).join('.') : '');
        if (r.right > W + 0.5)
          out.wide.push(name + ' right=' + Math.round(r.right));
        else if (el.scrollWidth > el.clientWidth + 1 &&
                 getComputedStyle(el).overflowX !== 'visible' &&
                 el.clientWidth > 0)
          out.wide.push(name + ' scrolls ' + el.scrollWidth + '>' +
                        el.clientWidth);
        if (out.wide.length >= 12)
          break;
      }
      // The summary.
      const sum = document.getElementById('summary');
      if (sum) {
        const r = sum.getBoundingClientRect();
        out.summary = { top: Math.round(r.top + scrollY),
                        bottom: Math.round(r.bottom + scrollY),
                        text: sum.innerText };
      }
      const cmp = document.getElementById('comparison');
      out.comparisonChart = !!(cmp && cmp.querySelector('svg'));
      out.comparisonText = cmp ? cmp.innerText : '';
      // Visible text, word by word, outside <code> (URLs and header
      // values as received are shown verbatim there).
      const words = new Set();
      const walker = document.createTreeWalker(document.body,
                                               NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const p = n.parentElement;
        if (!p || p.closest('code, title, style, script'))
          continue;
        const range = document.createRange();
        range.selectNodeContents(n);
        if (!range.getClientRects().length)
          continue;
        for (const w of n.textContent.split(/[\s,;:()\[\]{}"'=]+/))
          if (w)
            words.add(w);
      }
      out.rawNames = [...words].filter(
        (w) => /^[a-z][a-z0-9]*(_[a-z0-9]+)+$/.test(w) ||
               /_(us|ms)$/.test(w)).slice(0, 20);
      out.heads = [];
      for (const th of document.querySelectorAll('th')) {
        const t = th.innerText.trim();
        if (/_/.test(t) || /^[a-z0-9]+([A-Z][a-z0-9]*)+$/.test(t))
          out.heads.push(t);
      }
      out.bareNumbers = [];
      for (const td of document.querySelectorAll('td')) {
        const t = td.innerText.trim();
        if (/^[-+]?\d{4,}$/.test(t) && !td.closest('code'))
          out.bareNumbers.push(t);
      }
      out.bareNumbers = out.bareNumbers.slice(0, 10);
      out.tallRows = [];
      for (const tr of document.querySelectorAll('tr')) {
        const h = tr.getBoundingClientRect().height;
        if (h > 160)
          out.tallRows.push(Math.round(h) + 'px: ' +
                            tr.innerText.slice(0, 60).replace(/\s+/g, ' '));
      }
      out.tallRows = out.tallRows.slice(0, 5);
      out.bodyText = document.body.innerText;
      return out;
    }, [WIDTH, FOLD]);
    await page.screenshot({ path: prefix + '-first.png' });
    await page.screenshot({ path: prefix + '-full.png', fullPage: true });

    const text = m.bodyText;
    delete m.bodyText;
    const summaryText = m.summary ? m.summary.text : '';
    if (m.summary)
      m.summary.text = m.summary.text.slice(0, 400);
    m.fetched = fetched;
    process.stdout.write(JSON.stringify(m) + '\n');

    if (fetched.length)
      fail('the page fetched ' + fetched.join(' '));
    if (m.scripts)
      fail(m.scripts + ' <script> element(s)');
    if (m.external.length)
      fail('references outside the file: ' + m.external.join(' | '));
    if (m.scrollWidth > m.clientWidth)
      fail('the page scrolls sideways: ' + m.scrollWidth + ' px wide in a ' +
           m.clientWidth + ' px window');
    if (m.wide.length)
      fail('wider than the window: ' + m.wide.join('; '));
    if (!m.summary) {
      fail('no #summary');
    }
    else {
      if (m.summary.top >= FOLD || m.summary.bottom > FOLD)
        fail('the summary is not above the fold: ' + m.summary.top + '..' +
             m.summary.bottom + ' px, the first screen is ' + FOLD + ' px');
      for (const t of expect.targets || [])
        if (!summaryText.includes(t))
          fail('the summary does not name target ' + JSON.stringify(t));
      if (!/\d(\.\d+)?\s?(µs|ms|s)\b/.test(summaryText))
        fail('the summary has no duration with a unit');
      for (const [t, title] of Object.entries(expect.findings || {}))
        if (!summaryText.includes(title))
          fail('the summary lacks the top finding of ' + t + ': ' +
               JSON.stringify(title));
      for (const [t, v] of Object.entries(expect.verdicts || {}))
        if (!new RegExp(t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') +
                        '[^]*?' + v).test(summaryText))
          fail('the summary lacks the verdict of ' + t + ' (' + v + ')');
    }
    if (Object.keys(expect.verdicts || {}).length) {
      if (!m.comparisonChart)
        fail('no comparison chart (#comparison svg)');
      if (!/95\s?%/.test(m.comparisonText))
        fail('the comparison does not say its interval is 95 %');
    }
    if (m.rawNames.length)
      fail('raw machine names visible: ' + m.rawNames.join(' '));
    if (m.heads.length)
      fail('column heads that are not words: ' + m.heads.join(' | '));
    if (m.bareNumbers.length)
      fail('numbers without a unit in table cells: ' +
           m.bareNumbers.join(' '));
    if (m.tallRows.length)
      fail('table rows taller than 160 px: ' + m.tallRows.join(' | '));
    if (expect.profile) {
      if (!text.includes(expect.profile))
        fail('the profile name ' + JSON.stringify(expect.profile) +
             ' is not shown');
      const verdicts = (text.match(/\b(PASS|FAIL)\b/g) || []).length;
      if (verdicts < expect.checks)
        fail(expect.checks + ' checks but ' + verdicts + ' PASS/FAIL shown');
      if (!/measured/i.test(text))
        fail('the checks do not show what was measured');
    }
  }
  finally {
    await browser.close();
  }
  for (const f of failures)
    process.stdout.write('FAIL: ' + f + '\n');
  process.exit(failures.length ? 1 : 0);
}

main().catch((e) => {
  process.stderr.write('measure.js: ' + (e && e.stack || e) + '\n');
  process.exit(2);
});
