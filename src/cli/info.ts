// `pmdash info -a ARCHIVE [--json]`: what an archive (set) is — format version, host, time
// zone, start and end (pmGetArchiveEnd), volumes per archive, and counts of metrics, instance
// domains and records. Counting records reads the whole archive (values are not decoded).
import { optFlag, parseArgs, type OptionSpec } from './args';
import type { Command } from './command';
import { archiveOption, archiveRecords, archiveSpec, describeError, openForCommand } from './archive-cli';
import { formatIsoUtc } from '../pcp-core/time/format';
import { PM_ERR_EOL, PmError } from '../pcp-core/errors';

const options: readonly OptionSpec[] = [archiveOption, { long: 'json', help: 'print one JSON object' }];

export const infoCommand: Command = {
  name: 'info',
  summary: 'describe an archive: version, host, time zone, time span, volumes, counts',
  usage: '-a ARCHIVE [--json]',
  options,
  async run(argv, io) {
    const args = parseArgs(argv, options);
    const spec = archiveSpec(args);
    const set = await openForCommand('info', spec, io);
    if (!set) return 1;
    try {
      const label = set.label;
      const problems: string[] = [];
      const reader = await archiveRecords(set);
      let end: string | null = null;
      try {
        end = formatIsoUtc(await reader.archiveEndNamed());
      } catch (e) {
        if (!(e instanceof PmError)) throw e;
        problems.push(`cannot locate end of archive: ${describeError(e)}`);
      }
      let records = 0;
      let marks = 0;
      for (;;) {
        try {
          const r = await reader.fetchArchiveRecord();
          records++;
          if (r.numpmid === 0) marks++;
        } catch (e) {
          if (!(e instanceof PmError)) throw e;
          if (e.code !== PM_ERR_EOL) problems.push(`records after ${records}: ${describeError(e)}`);
          break;
        }
      }
      const meta = set.metadata;
      const archives = set.archives.map((a) => ({
        name: a.name,
        version: a.label.version,
        host: a.label.hostname,
        timezone: a.label.timezone,
        zoneinfo: a.label.zoneinfo,
        start: formatIsoUtc(a.start),
        volumes: a.volumeNumbers,
      }));
      if (optFlag(args, 'json')) {
        const info = {
          archive: spec,
          version: label.version,
          host: label.hostname,
          timezone: label.timezone,
          zoneinfo: label.zoneinfo,
          start: formatIsoUtc(label.start),
          end,
          archives,
          metrics: meta.descCount,
          names: meta.pmns.size,
          indoms: meta.indomCount,
          records,
          marks,
          problems,
        };
        io.stdout(JSON.stringify(info, null, 2) + '\n');
      } else {
        const lines = [
          `Archive:          ${spec}`,
          `Format version:   ${label.version}`,
          `Host:             ${label.hostname}`,
          `Timezone:         ${label.timezone}${label.zoneinfo ? ` (${label.zoneinfo})` : ''}`,
          `Start:            ${formatIsoUtc(label.start)}`,
          `End:              ${end ?? 'UNKNOWN'}`,
          ...archives.map((a) => `Volumes:          ${a.volumes.join(' ')}${set.archives.length > 1 ? `  (${a.name}, starting ${a.start})` : ''}`),
          `Metrics:          ${meta.descCount} (${meta.pmns.size} names)`,
          `Instance domains: ${meta.indomCount}`,
          `Records:          ${records} (${marks} <mark>)`,
          ...problems.map((p) => `Warning:          ${p}`),
        ];
        io.stdout(lines.join('\n') + '\n');
      }
      return problems.length > 0 ? 1 : 0;
    } finally {
      await set.close();
    }
  },
};
