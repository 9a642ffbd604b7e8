// The fleet heatmap: hosts × time for the tab's metric, each cell the mean of the host's
// stored samples in that column (charts/heatmap-cells.ts), light to dark over the range of all cells;
// an empty cell (no sample) stays blank. A canvas per row keeps 100 hosts cheap to draw.
import { useEffect, useRef } from 'react';
import type { FleetChartAnswer } from '../../workers/fleet-api';
import { heatmapRange, heatmapRows, heatShade as shade, type HeatmapRow } from '../charts/heatmap-cells';

const COLUMNS = 120;
const ROW_PX = 16;

function HeatRow({ row, range }: { row: HeatmapRow; range: [number, number] | undefined }) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const canvas = ref.current;
    const g = canvas?.getContext('2d');
    if (!canvas || !g) return;
    const w = canvas.clientWidth;
    canvas.width = w;
    canvas.height = ROW_PX;
    g.clearRect(0, 0, w, ROW_PX);
    if (!range) return;
    const n = row.cells.length;
    for (let c = 0; c < n; c++) {
      const v = row.cells[c];
      if (Number.isNaN(v)) continue;
      g.fillStyle = shade(range[1] > range[0] ? (v - range[0]) / (range[1] - range[0]) : 0.5);
      const x0 = Math.floor((c / n) * w);
      const x1 = Math.floor(((c + 1) / n) * w);
      g.fillRect(x0, 0, Math.max(1, x1 - x0), ROW_PX);
    }
  }, [row, range]);
  const filled = row.cells.reduce((k, v) => (Number.isNaN(v) ? k : k + 1), 0);
  return (
    <div className="fleet-heat-row" data-testid="fleet-heat-row" data-host={row.host} data-filled={filled}>
      <span className="fleet-heat-host" title={row.host}>{row.host}</span>
      <canvas ref={ref} className="fleet-heat-canvas" />
    </div>
  );
}

export function FleetHeatmap({ answer, startMs, finishMs }: { answer: FleetChartAnswer; startMs: number; finishMs: number }) {
  const rows = heatmapRows(answer.hosts, startMs, finishMs, COLUMNS);
  const range = heatmapRange(rows);
  return (
    <div className="fleet-heatmap" data-testid="fleet-heatmap">
      <div className="fleet-heat-title">
        Heatmap, hosts × time: mean of the stored samples in each of {COLUMNS} columns
        {range && (
          <span className="fleet-heat-scale">
            {' '}· <span className="fleet-swatch" style={{ background: shade(0) }} />{range[0].toPrecision(4)} … <span className="fleet-swatch" style={{ background: shade(1) }} />{range[1].toPrecision(4)}
          </span>
        )}
      </div>
      {rows.map((r) => <HeatRow key={r.host} row={r} range={range} />)}
    </div>
  );
}
