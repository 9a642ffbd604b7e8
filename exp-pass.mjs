import { chromium } from '@playwright/test';
import { readFileSync } from 'node:fs';
const files = ['0','1','2','3'].map(s => `/tmp/reads-exp/arch/20180416.10.00.${s}`);
const code = readFileSync('/tmp/reads-exp/pass/worker.js', 'utf8');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu'] });
const page = await browser.newPage();
await page.setContent('<input type=file multiple id=f>');
await page.locator('#f').setInputFiles(files);
const res = await page.evaluate(async (code) => {
  const w = new Worker(URL.createObjectURL(new Blob([code])));
  const files = Array.from(document.getElementById('f').files);
  const run = (mode) => new Promise(r => { w.onmessage = (e) => r(e.data); w.postMessage({ files, mode }); });
  const modes = ['ahead:4:4', 'ahead:8:2', 'ahead:8:3', 'ahead:16:2', 'whole']; const out = {}; for (const m of modes) out[m] = [];
  for (let i = 0; i < 9; i++) for (const m of modes) { const r = await run(m); out[m].push(Math.round(r.ms)); }
  return out;
}, code);
for (const [k, v] of Object.entries(res)) { const s = [...v].sort((a,b)=>a-b); console.log(k.padEnd(12), 'min', s[0], 'median', s[4], JSON.stringify(v)); }
await browser.close();
