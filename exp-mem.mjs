import { chromium } from '@playwright/test';
import WebSocket from 'ws';
async function workerHeaps() {
  const v = await (await fetch('http://127.0.0.1:45510/json/version')).json();
  const ws = new WebSocket(v.webSocketDebuggerUrl);
  await new Promise(r => ws.once('open', r));
  let id = 0; const waits = new Map();
  ws.on('message', d => { const m = JSON.parse(d.toString()); if (m.id && waits.has(m.id)) { waits.get(m.id)(m); waits.delete(m.id); } });
  const send = (method, params = {}, sessionId) => new Promise(r => { const i = ++id; waits.set(i, r); ws.send(JSON.stringify({ id: i, method, params, ...(sessionId ? { sessionId } : {}) })); });
  const targets = (await send('Target.getTargets')).result.targetInfos;
  const out = [];
  for (const t of targets) {
    if (t.type !== 'worker' && t.type !== 'page') continue;
    const s = (await send('Target.attachToTarget', { targetId: t.targetId, flatten: true })).result?.sessionId;
    if (!s) { out.push(t.type+':noattach'); continue; }
    const h = await send('Runtime.getHeapUsage', {}, s);
    out.push(`${t.type} ${t.url.slice(0,40)} used ${(h.result?.usedSize/1048576).toFixed(0)} total ${(h.result?.totalSize/1048576).toFixed(0)} ext ${((h.result?.embedderHeapUsedSize ?? 0)/1048576).toFixed(0)} backing ${((h.result?.backingStorageSize ?? 0)/1048576).toFixed(0)}`);
  }
  ws.close();
  return out.join(' | ');
}
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
const files = ['index','meta','0','1','2','3'].map(s => `/tmp/reads-exp/arch/20180416.10.00.${s}`);
const proc = spawn(process.execPath, ['bin/pmdash.js', 'serve', '--port', '45501'], { stdio: 'ignore' });
await new Promise(r => setTimeout(r, 1500));
const server = await chromium.launchServer({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu','--js-flags=--expose-gc','--remote-debugging-port=45510'] });
const root = server.process().pid;
const browser = await chromium.connect(server.wsEndpoint());
let pageRef;
async function heaps(tag) {
  const cdp = await pageRef.context().newCDPSession(pageRef);
  const ph = await cdp.send('Runtime.getHeapUsage');
  const ws = [];
  for (const w of pageRef.workers()) ws.push(await w.evaluate(() => JSON.stringify({ used: performance.memory?.usedJSHeapSize, total: performance.memory?.totalJSHeapSize })));
  console.log(tag, await workerHeaps());
  console.log(tag, 'page heap used', (ph.usedSize/1048576).toFixed(0), 'total', (ph.totalSize/1048576).toFixed(0), 'workers', ws.join(' '));
}
function mem(tag) {
  const kids = new Map(); const info = new Map();
  for (const e of readdirSync('/proc')) { if (!/^\d+$/.test(e)) continue; try { const st = readFileSync(`/proc/${e}/stat`,'utf8'); const pp = Number(st.slice(st.lastIndexOf(')')+2).split(' ')[1]); kids.set(pp,[...(kids.get(pp)??[]),+e]); const cl = readFileSync(`/proc/${e}/cmdline`,'utf8'); const s = readFileSync(`/proc/${e}/status`,'utf8'); const th = (() => { try { return readdirSync(`/proc/${e}/task`).map(t => readFileSync(`/proc/${e}/task/${t}/comm`,'utf8').trim()).filter(n => /Worker/.test(n)).join(','); } catch { return ''; } })(); info.set(+e, { th, type: /--type=([a-z-]+)/.exec(cl)?.[1] ?? 'browser', rss: +(/VmRSS:\s+(\d+)/.exec(s)?.[1]??0)/1024, hwm: +(/VmHWM:\s+(\d+)/.exec(s)?.[1]??0)/1024 }); } catch {} }
  const out = []; const walk = p => { for (const c of kids.get(p) ?? []) { const i = info.get(c); if (i) out.push(`${i.type}${i.th ? '['+i.th+']' : ''}:${i.rss.toFixed(0)}/${i.hwm.toFixed(0)}`); walk(c); } };
  walk(root); console.log(tag, out.join(' '));
}
const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
await page.goto('http://127.0.0.1:45501/?empty');
await page.getByTestId('time-bar').waitFor();
pageRef = page; mem('loaded'); await heaps('loaded');
const input = await page.evaluateHandle(() => { const el = document.createElement('input'); el.type='file'; el.multiple=true; el.id='st'; el.style.display='none'; document.body.appendChild(el); return el; });
await input.asElement().setInputFiles(files);
await page.evaluate(() => { const el = document.getElementById('st'); const dt = new DataTransfer(); for (const f of el.files) dt.items.add(f); document.querySelector('[data-testid="drop-target"]').dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: dt })); });
await page.locator('[data-testid="chart"] [data-testid="legend-value"][data-value]:not([data-value=""])').first().waitFor({ timeout: 60000 });
await page.waitForFunction(() => document.querySelectorAll('.spinner').length === 0);
await page.waitForTimeout(1000);
mem('dropped'); await heaps('dropped');
await page.getByTestId('range-picker').click();
const t0 = Date.now();
await page.getByTestId('range-whole').click();
await page.waitForTimeout(300);
await page.waitForFunction(() => document.querySelectorAll('.spinner').length === 0, undefined, { timeout: 120000 });
console.log('whole ms ~', Date.now() - t0);
await page.waitForTimeout(2000);
mem('whole'); await heaps('whole');
await page.evaluate(() => globalThis.gc?.());
for (const w of page.workers()) await w.evaluate(() => globalThis.gc?.());
await page.waitForTimeout(2000);
mem('after gc'); await heaps('after gc');
const pm = await (await page.context().newCDPSession(page)).send('Performance.enable').then(async () => 0);
await browser.close(); await server.close(); proc.kill();
