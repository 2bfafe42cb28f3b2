// Runs Lighthouse on a list of pages in one node process and one Chromium, and prints one JSON
// summary per page. Read from stdin: {"chrome_path", "chrome_flags", "runs": [{"name", "url",
// "cookie", "categories"}]}. Printed to stdout: a JSON list of {"name", "url", "scores",
// "failing"}, where "failing" lists each audit that lost points with its items, so a failed
// test says what to fix. Used by tests/browser/test_lighthouse.py.
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import puppeteer from 'puppeteer-core';

const read = async () => {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
};

// An item of a failing audit, cut to what names the element and the problem.
const itemText = (item) => {
  const node = item.node || (item.subItems && item.subItems.items && item.subItems.items[0]
    && item.subItems.items[0].relatedNode);
  const parts = [];
  if (node) parts.push(node.selector || '', (node.snippet || '').slice(0, 200), node.explanation || '');
  for (const key of ['source', 'description', 'url', 'label', 'text', 'value']) {
    const value = item[key];
    if (value === undefined || value === null) continue;
    parts.push(typeof value === 'object' ? JSON.stringify(value).slice(0, 200) : String(value).slice(0, 200));
  }
  return parts.filter(Boolean).join(' | ');
};

const failing = (lhr) => {
  const out = [];
  for (const [key, category] of Object.entries(lhr.categories)) {
    for (const ref of category.auditRefs) {
      const audit = lhr.audits[ref.id];
      if (!audit || audit.score === null || audit.score >= 1) continue;
      if (['notApplicable', 'manual', 'informative'].includes(audit.scoreDisplayMode)) continue;
      if (key === 'performance' && ref.group !== 'metrics') continue;
      const items = ((audit.details && audit.details.items) || []).slice(0, 8).map(itemText);
      out.push({category: key, id: ref.id, title: audit.title, score: audit.score,
                shown: audit.displayValue || '', items});
    }
  }
  return out;
};

// One Lighthouse run on a fresh tab that holds only the run's cookies.
const audit = async (browser, run) => {
  const page = await browser.newPage();
  try {
    const cdp = await page.createCDPSession();
    await cdp.send('Network.clearBrowserCookies');
    await cdp.send('Network.setCookies', {cookies: run.cookies});
    await cdp.detach();
    // Lighthouse's own settings otherwise (a phone, its throttling simulated): its 'provided'
    // throttling looked quicker but made each page wait some 11 s longer for its load to settle.
    // skipAboutBlank: the tab is new and blank already.
    const flags = {output: 'json', logLevel: 'error', onlyCategories: run.categories,
                   formFactor: run.form_factor, skipAboutBlank: true};
    if (run.form_factor === 'desktop') {
      // Lighthouse's desktop preset: a 1350x940 screen, a fast network, no CPU slowdown.
      flags.screenEmulation = {mobile: false, width: 1350, height: 940, deviceScaleFactor: 1, disabled: false};
      flags.throttling = {rttMs: 40, throughputKbps: 10240, cpuSlowdownMultiplier: 1,
                          requestLatencyMs: 0, downloadThroughputKbps: 0, uploadThroughputKbps: 0};
    }
    return (await lighthouse(run.url, flags, undefined, page)).lhr;
  } finally {
    await page.close();
  }
};

const main = async () => {
  const job = await read();
  const chrome = await chromeLauncher.launch({chromePath: job.chrome_path, chromeFlags: job.chrome_flags,
                                              logLevel: 'silent'});
  const browser = await puppeteer.connect({browserURL: `http://127.0.0.1:${chrome.port}`});
  const results = [];
  try {
    for (const run of job.runs) {
      const started = Date.now();
      let lhr = await audit(browser, run);
      // A trace Lighthouse could not read (NO_NAVSTART, on a loaded machine) is its own fault,
      // not the page's: it asks to be run again, so it is, once.
      if (lhr.runtimeError) lhr = await audit(browser, run);
      const scores = {};
      for (const [key, category] of Object.entries(lhr.categories)) scores[key] = category.score;
      const metrics = {};
      for (const id of ['first-contentful-paint', 'total-blocking-time', 'largest-contentful-paint',
                        'speed-index', 'cumulative-layout-shift']) {
        if (lhr.audits[id]) metrics[id] = lhr.audits[id].displayValue;
      }
      results.push({name: run.name, url: run.url, final_url: lhr.finalDisplayedUrl, scores, metrics,
                    failing: failing(lhr), runtime_error: lhr.runtimeError || null,
                    seconds: (Date.now() - started) / 1000});
    }
  } finally {
    await browser.disconnect();
    await chrome.kill();
  }
  process.stdout.write(JSON.stringify(results));
};

main().catch((error) => {
  process.stderr.write(String(error && error.stack || error));
  process.exit(1);
});
