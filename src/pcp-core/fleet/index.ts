// The fleet folder's surface: the /series client and the types its callers see.
export { FleetClient } from './fleet-client';
export type { ChartHost, ChartLine, ChartRequest, ChartResult, FleetClientOptions, FleetHost } from './fleet-client';
export { ECANCELED, FleetError, FleetTransport, isFleetCancel } from './transport';
export type { FleetFetch, FleetResponse, TransportOptions } from './transport';
export type { Labels, SeriesDesc, SeriesInstance, SeriesValue } from './answers';
export { chartExpr, checkMetricPattern, formatTimeSpec, hostSeriesExpr, quoteLabelValue } from './query-expr';
export type { Aggregate, TimeSpec } from './query-expr';
export { decimateLine } from './decimate';
