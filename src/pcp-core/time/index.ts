// The time folder's surface for the rest of pcp-core and its clients: exact timestamps,
// PCP interval and time-window syntax, archive zones and the tools' time formats.
export * from './timestamp';
export { Zone, utcZone } from './zone';
export type { BrokenDownTime, LocalTimeFields, ZoneOffset } from './zone';
export { formatAsctime, formatCtime, formatCtimeFraction, formatFraction, formatIsoUtc, formatTimeOfDay, writeTimeOfDayMillis } from './format';
export { PM_MAX_TIME_T, parseInterval, tryParseInterval, tryParseIntervalSeconds } from './interval';
export type { IntervalResult } from './interval';
export { parseTime, parseTimeWindow } from './time-window';
export type { TimeContext, TimeResult, TimeWindowArgs, TimeWindowResult } from './time-window';
export { TimeParseError, formatTimeParseError } from './parse-error';
export { parseCtime } from './ctime-parse';
export type { CtimeFields, CtimeResult } from './ctime-parse';
export { getDate } from './getdate';
