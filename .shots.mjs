// throwaway: screenshots of my screens at 1024x700 in both themes (not committed)
import { chromium } from 'playwright';
const base = 'http://localhost:18401/';
const QA = '/var/lib/pcp/testsuite/archives';
const BAD = '/var/lib/pcp/testsuite/badarchives';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
async function drop(page, paths) {
  const h = await page.evaluateHandle(() => { const i = document.createElement('input'); i.type = 'file'; i.multiple = true; i.style.display = 'none'; i.id = 'stg'; document.body.appendChild(i); return i; });
  await h.asElement().setInputFiles(paths);
  await page.evaluate(() => { const i = document.getElementById('stg'); const dt = new DataTransfer(); for (const f of i.files) dt.items.add(f); const t = document.querySelector('[data-testid="drop-target"]'); t.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: dt })); i.remove(); });
}
for (const [w, h] of [[1024, 700], [1920, 1080]]) for (const theme of ['light', 'dark']) {
  const ctx = await browser.newContext({ viewport: { width: w, height: h }, colorScheme: theme, timezoneId: 'UTC' });
  const page = await ctx.newPage();
  await page.goto(base);
  await page.locator('[data-testid="source"][data-status="ready"]').first().waitFor({ timeout: 60000 });
  await page.waitForTimeout(1500);
  await drop(page, ['meta', 'index', '0'].map((s) => `${QA}/20180415.09.16.${s}`).concat(['meta', 'index', '0'].map((s) => `${QA}/20180102.${s}`)));
  await page.waitForTimeout(4000);
  await drop(page, ['meta', 'index', '0'].map((s) => `${BAD}/badlen-1.${s}`));
  await drop(page, [`${BAD}/README`]);
  await page.waitForTimeout(3000);
  await page.screenshot({ path: `/tmp/uisrc-shots/two-hosts-notices-${w}-${theme}.png` });
  await page.keyboard.press('?');
  await page.waitForTimeout(300);
  await page.screenshot({ path: `/tmp/uisrc-shots/sheet-${w}-${theme}.png` });
  await page.keyboard.press('Escape');
  for (const b of await page.getByTitle('Close source').all()) { await b.click().catch(() => {}); }
  for (let k = 0; k < 4; k++) { const b = page.getByTitle('Close source').first(); if (await b.count()) await b.click(); }
  await page.waitForTimeout(500);
  await page.screenshot({ path: `/tmp/uisrc-shots/empty-${w}-${theme}.png` });
  await ctx.close();
}
await browser.close();
