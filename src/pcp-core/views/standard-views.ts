// pmchart's standard views (the ones pcp-gui installs in $PCP_VAR_DIR/config/pmchart),
// re-expressed by pmdash as ViewFile models built from a few chart builders. The facts —
// which metrics, styles, optional plots, instance patterns and colours — are those of
// docs/pmchart-reference.md §1c "Views installed"; the code and wording are ours. Every one
// is written through view-serializer.ts and checked with `pmchart -C`
// (standard-views.conformance.test.ts). The UI offers them in its Views menu.
import type { ViewChart, ViewChartStyle, ViewFile, ViewInstances, ViewPlot, ViewScheme, ViewTab } from './view-model';

export interface StandardView {
  /** pmchart's file name (`pmchart -c CPU`). */
  readonly name: string;
  /** One line for the menu. */
  readonly description: string;
  readonly view: ViewFile;
}

interface PlotOptions {
  readonly legend?: string;
  readonly color?: string;
  readonly optional?: boolean;
  readonly instances?: ViewInstances;
}

const plot = (metric: string, o: PlotOptions = {}): ViewPlot => ({
  optional: o.optional ?? false,
  metric,
  instances: o.instances ?? { kind: 'all' },
  ...(o.legend !== undefined && { legend: o.legend }),
  ...(o.color !== undefined && { color: o.color }),
});
const maybe = (metric: string, o: PlotOptions = {}): ViewPlot => plot(metric, { ...o, optional: true });

const chart = (title: string, style: ViewChartStyle, plots: ViewPlot[], extra: Partial<ViewChart> = {}): ViewChart => ({
  title: `${title} [%h]`, style, legend: true, antialiasing: true, plots, ...extra,
});

const view = (tabs: ViewTab[], extra: Partial<ViewFile> = {}): ViewFile => ({ format: 'kmchart', version: '1', globals: {}, schemes: [], tabs, ...extra });
const oneTab = (...charts: ViewChart[]): ViewFile => view([{ charts }]);

// The CPU palette pmchart's views share: user blue, system red, nice pale green, interrupt
// olive, wait cyan, steal pink, idle green.
const CPU = { user: '#2d2de2', sys: '#e71717', nice: '#c2f3c2', intr: '#cdcd00', wait: '#00cdcd', steal: '#fba2f5', idle: '#16d816' };

function cpuChart(sysLegend: string): ViewChart {
  return chart('CPU Utilization', 'utilization', [
    plot('kernel.all.cpu.user', { legend: 'User', color: CPU.user }),
    plot('kernel.all.cpu.sys', { legend: sysLegend, color: CPU.sys }),
    maybe('kernel.all.cpu.nice', { legend: 'Nice', color: CPU.nice }),
    maybe('kernel.all.cpu.intr', { legend: 'Intr', color: CPU.intr }),
    maybe('kernel.all.cpu.wait.total', { legend: 'Wait', color: CPU.wait }),
    maybe('kernel.all.cpu.steal', { legend: 'Steal', color: CPU.steal }),
    plot('kernel.all.cpu.idle', { legend: 'Idle', color: CPU.idle }),
  ]);
}

function vcpuChart(): ViewChart {
  return chart('Host and Guest CPU Utilization', 'utilization', [
    plot('kernel.all.cpu.vuser', { legend: 'User', color: CPU.user }),
    maybe('kernel.all.cpu.guest', { legend: 'Guest User', color: '#666666' }),
    plot('kernel.all.cpu.sys', { legend: 'Kernel', color: CPU.sys }),
    maybe('kernel.all.cpu.vnice', { legend: 'Nice', color: CPU.nice }),
    maybe('kernel.all.cpu.guest_nice', { legend: 'Guest Nice', color: '#dbdbdb' }),
    maybe('kernel.all.cpu.intr', { legend: 'Intr', color: CPU.intr }),
    maybe('kernel.all.cpu.wait.total', { legend: 'Wait', color: CPU.wait }),
    maybe('kernel.all.cpu.steal', { legend: 'Steal', color: CPU.steal }),
    plot('kernel.all.cpu.idle', { legend: 'Idle', color: CPU.idle }),
  ]);
}

const loadChart = (): ViewChart =>
  chart('Average Load', 'line', [
    plot('kernel.all.load', { legend: '1 min', instances: { kind: 'instance', name: '1 minute' } }),
    plot('hinv.ncpu', { legend: '# cpus' }),
  ], { antialiasing: false });

const loadavgChart = (): ViewChart =>
  chart('Load Average', 'line', ['1', '5', '15'].map((m) => plot('kernel.all.load', { legend: `${m} min`, instances: { kind: 'instance', name: `${m} minute` } })), { antialiasing: false });

const diskChart = (title: string, read: string, write: string, legends: [string, string]): ViewChart =>
  chart(title, 'stacking', [plot(read, { legend: legends[0], color: 'yellow' }), plot(write, { legend: legends[1], color: 'violet' })]);

/** Virtual, loopback and tunnel interfaces the network views leave out. */
const NOT_PHYSICAL = '^lo|^gif|^sl|^sit|^stf|^tun|^wlt|^virbr|^vnet|^vmnet|^MS TCP Loopback interface';

const netChart = (what: 'bytes' | 'packets', title: string): ViewChart =>
  chart(title, 'stacking', (['in', 'out'] as const).map((dir) =>
    plot(`network.interface.${dir}.${what}`, { legend: `${dir} %i`, instances: { kind: 'not-matching', pattern: NOT_PHYSICAL } })));

const memoryChart = (): ViewChart =>
  chart('Real Memory Usage', 'stacking', [
    maybe('mem.util.cached', { color: '#9cffab' }),
    maybe('mem.util.bufmem', { color: '#fe68ad' }),
    maybe('mem.util.other', { color: '#ffae2c' }),
    plot('mem.util.free', { color: '#00ff00' }),
  ]);

/** pmchart's two-tab iostat layout, for disk.dev, disk.dm or disk.md. */
function iostatView(prefix: string, noun: string, short: string): ViewFile {
  const perDevice = (metric: string): ViewPlot => plot(`${prefix}.${metric}`, { color: '#-cycle' });
  return view([
    {
      label: `${noun} TRAFFIC`,
      charts: [
        chart(`${short} READ thruput`, 'stacking', [perDevice('read_bytes')]),
        chart(`${short} WRITE thruput`, 'stacking', [perDevice('write_bytes')]),
        chart(`${short} READ OPS`, 'stacking', [perDevice('read')]),
        chart(`${short} WRITE OPS`, 'stacking', [perDevice('write')]),
      ],
    },
    {
      label: `${noun} IOSTAT`,
      charts: [
        chart(`${short} Avg Wait Time (msecs / req)`, 'line', [perDevice('await')]),
        chart(`${short} Avg Req Size (Kbytes / req)`, 'line', [perDevice('avg_rqsz')]),
        chart(`${short} Avg Queue Len`, 'line', [perDevice('avg_qlen')]),
        chart(`${short} Avg %Util`, 'line', [perDevice('util')], { scale: { min: 0, max: 100 } }),
      ],
    },
  ], { globals: { width: 600, height: 300, points: 360 } });
}

const scheme = (name: string, colors: string[]): ViewScheme => ({ name, colors, beforeTab: 0 });

const PMCD_PROCESS = '[\\\\/](pmcd |pmcd$)';
const PMDA_PROCESS = '[\\\\/]pmda[a-z]';

export const STANDARD_VIEWS: readonly StandardView[] = [
  { name: 'Overview', description: 'CPU, load, disk IOPS, network bytes and memory', view: oneTab(cpuChart('Sys'), loadChart(), diskChart('IOPS over all Disks', 'disk.all.read', 'disk.all.write', ['Reads', 'Writes']), netChart('bytes', 'Network Interface Bytes'), memoryChart()) },
  { name: 'CPU', description: 'CPU utilization by state', view: oneTab(cpuChart('Kernel')) },
  { name: 'vCPU', description: 'Host and guest CPU utilization', view: oneTab(vcpuChart()) },
  { name: 'Loadavg', description: 'Load average over 1, 5 and 15 minutes', view: oneTab(loadavgChart()) },
  { name: 'Disk', description: 'Read and write operations over all disks', view: oneTab(diskChart('IOPS over all Disks', 'disk.all.read', 'disk.all.write', ['Reads', 'Writes'])) },
  { name: 'Diskbytes', description: 'Read and write throughput over all disks', view: oneTab(diskChart('Disk Throughput', 'disk.all.read_bytes', 'disk.all.write_bytes', ['Read rate', 'Write rate'])) },
  { name: 'Iostat', description: 'Per-disk traffic and iostat figures (two tabs)', view: iostatView('disk.dev', 'SCSI Disk', 'Disk') },
  { name: 'Iostat.DM', description: 'Per device-mapper volume traffic and iostat figures', view: iostatView('disk.dm', 'Device Mapper', 'DM') },
  { name: 'Iostat.MD', description: 'Per software-RAID device traffic and iostat figures', view: iostatView('disk.md', 'Multi-Disk', 'MD') },
  { name: 'Filesystem', description: 'How full each file system is', view: oneTab(chart('File System Fullness %', 'line', [plot('filesys.full', { legend: '%i', instances: { kind: 'not-matching', pattern: '/dev/shm|/dev$' } })])) },
  { name: 'Memory', description: 'Real memory: cached, buffers, other, free', view: oneTab(memoryChart()) },
  { name: 'MemAvailable', description: 'Available memory against physical memory', view: oneTab(chart('Memory Available', 'area', [maybe('mem.util.available', { color: '#00ff00' }), plot('mem.physmem', { color: '#3549ff' })])) },
  { name: 'Netbytes', description: 'Bytes in and out per network interface', view: oneTab(netChart('bytes', 'Network Interface Bytes')) },
  { name: 'Netpackets', description: 'Packets in and out per network interface', view: oneTab(netChart('packets', 'Network Interface Packets')) },
  { name: 'NFS2', description: 'NFS version 2 client and server calls', view: oneTab(chart('NFS2 Calls', 'line', [plot('nfs.client.calls', { legend: 'client' }), plot('nfs.server.calls', { legend: 'server' })])) },
  { name: 'NFS3', description: 'NFS version 3 client and server calls', view: oneTab(chart('NFS3 Calls', 'line', [plot('nfs3.client.calls', { legend: 'client' }), plot('nfs3.server.calls', { legend: 'server' })])) },
  { name: 'Paging', description: 'Pages swapped out and in', view: oneTab(chart('VM Activity - Page Migrations', 'line', [plot('swap.pagesout', { legend: 'Out' }), plot('swap.pagesin', { legend: 'In' })])) },
  { name: 'Sockets', description: 'TCP, UDP and raw sockets in use', view: oneTab(chart('Sockets in Use', 'line', [maybe('network.sockstat.tcp.inuse', { legend: 'TCP' }), maybe('network.sockstat.udp.inuse', { legend: 'UDP' }), maybe('network.sockstat.raw.inuse', { legend: 'Raw' })])) },
  { name: 'Swap', description: 'Swap space free and used', view: oneTab(chart('Logical Swap Allocation', 'stacking', [maybe('swap.free', { legend: 'Free', color: '#16e116' }), maybe('swap.used', { legend: 'Used', color: CPU.sys })])) },
  { name: 'Syscalls', description: 'System calls: all, exec, fork, read, write', view: oneTab(chart('System Calls', 'line', [['syscall', 'All'], ['sysexec', 'exec'], ['sysfork', 'fork'], ['sysread', 'read'], ['syswrite', 'write']].map(([m, l]) => maybe(`kernel.all.${m ?? ''}`, { legend: l })))) },
  {
    name: 'PMCD',
    description: 'PDUs through pmcd and CPU time of pmcd and its agents',
    view: oneTab(
      chart('Packets for PMCD', 'stacking', [plot('pmcd.pdu_in.total', { legend: 'In' }), plot('pmcd.pdu_out.total', { legend: 'Out' })]),
      chart('CPU Time for PMCD and DSO PMDAs', 'stacking', [
        maybe('proc.psinfo.utime', { legend: 'User', color: CPU.user, instances: { kind: 'matching', pattern: PMCD_PROCESS } }),
        maybe('proc.psinfo.stime', { legend: 'Sys', color: CPU.sys, instances: { kind: 'matching', pattern: PMCD_PROCESS } }),
      ]),
      chart('CPU Time for Other PMDAs', 'stacking', [
        maybe('proc.psinfo.utime', { color: CPU.user, instances: { kind: 'matching', pattern: PMDA_PROCESS } }),
        maybe('proc.psinfo.stime', { color: CPU.sys, instances: { kind: 'matching', pattern: PMDA_PROCESS } }),
      ], { legend: false }),
    ),
  },
  {
    name: 'Schemes',
    description: 'Colour schemes Italian, Fire, Nature, Neon and Ocean (no charts)',
    view: view([], {
      schemes: [
        scheme('Italian', ['#e0006e', '#67b2b1', '#f5f0e0', '#c64f24', '#a8d9f4', '#586e75', '#fdf6e3']),
        scheme('Fire', ['#f2b600', '#ede200', '#d21005', '#e4d904', '#f35241', '#000000']),
        scheme('Nature', ['#b4ff3a', '#d2954e', '#069806', '#8b5f07', '#08ed00']),
        scheme('Neon', ['#ff34f9', '#fffb00', '#1df0ff', '#12ff01', '#ffc800']),
        scheme('Ocean', ['#f5dd85', '#aaf5cb', '#4790f5', '#bdcfcc', '#12cfa0']),
      ],
    }),
  },
];

/** A standard view by pmchart's name (case-sensitive, as pmchart's file names are). */
export function standardView(name: string): StandardView | undefined {
  return STANDARD_VIEWS.find((v) => v.name === name);
}
