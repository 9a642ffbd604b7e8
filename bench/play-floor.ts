// The floor under the playback row (`ui: play 16 charts × 8 series`): a bare page (no
// framework, no worker, no data) that changes, every frame, the least any page playing those
// charts must change: each chart's strip canvas (same backing size, place and clip, drawn once
// with 8 lines) slides by one pixel, and every legend value gets new text. Its frame times in
// the same browser and viewport say what this Chromium (software compositing here) allows,
// whatever draws the charts.
import type { Browser } from '@playwright/test';
import type { ChartParts } from './chart-parts';

function floorPage(parts: ChartParts): string {
  return `<!doctype html><html><body style="margin:0;font:11px 'DejaVu Sans Mono',monospace"><script>
const parts = ${JSON.stringify(parts)};
const box = (r) => { const d = document.createElement('div'); d.style.cssText = 'position:absolute;overflow:hidden;left:' + r.x + 'px;top:' + r.y + 'px;width:' + r.w + 'px;height:' + r.h + 'px'; document.body.appendChild(d); return d; };
const strips = parts.canvases.map((c) => {
  const el = document.createElement('canvas');
  el.width = c.pw; el.height = c.ph;
  el.style.cssText = 'position:absolute;will-change:transform;left:' + (c.x - c.clip.x) + 'px;top:' + (c.y - c.clip.y) + 'px;width:' + c.w + 'px;height:' + c.h + 'px';
  box(c.clip).appendChild(el);
  const ctx = el.getContext('2d');
  for (let s = 0; s < 8; s++) {
    ctx.beginPath();
    for (let i = 0; i <= 400; i++) ctx.lineTo((i * c.pw) / 400, c.ph * (0.5 + 0.4 * Math.sin(i / 9 + s)));
    ctx.strokeStyle = 'hsl(' + s * 45 + ',60%,45%)'; ctx.lineWidth = 1.5; ctx.stroke();
  }
  return el;
});
const values = parts.values.map((p) => { const s = document.createElement('span'); s.style.cssText = 'position:absolute;left:' + p.x + 'px;top:' + p.y + 'px'; s.textContent = '0.000'; document.body.appendChild(s); return s; });
let n = 0;
window.frame = () => {
  n++;
  for (const el of strips) el.style.transform = 'translateX(' + -(n % 200) + 'px)';
  for (const s of values) s.textContent = ((n * 7.31) % 100).toFixed(3);
};
</script></body></html>`;
}

/** Frame-to-frame times (ms) of the floor page over `ms`, in a fresh page of `browser`. */
export async function playFloorFrames(browser: Browser, viewport: { width: number; height: number }, parts: ChartParts, ms: number): Promise<number[]> {
  const page = await browser.newPage({ viewport });
  try {
    await page.setContent(floorPage(parts));
    return await page.evaluate(
      (span) =>
        new Promise<number[]>((resolve) => {
          const frame = (window as unknown as { frame: () => void }).frame;
          const deltas: number[] = [];
          let last = performance.now();
          const end = last + span;
          const tick = (now: number): void => {
            deltas.push(now - last);
            last = now;
            frame();
            if (now < end) requestAnimationFrame(tick);
            else resolve(deltas);
          };
          requestAnimationFrame(tick);
        }),
      ms,
    );
  } finally {
    await page.close();
  }
}
