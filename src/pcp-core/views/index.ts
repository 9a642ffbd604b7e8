// The views folder's surface for other folders: the view file model, its parser and
// serializer, colour resolution and the standard views.
export type { ViewChart, ViewChartStyle, ViewFile, ViewGlobals, ViewInstances, ViewPlot, ViewScheme, ViewTab } from './view-model';
export { VIEW_CHART_STYLES, emptyView, schemeForTab } from './view-model';
export type { ViewDiagnostic, ViewParseResult } from './view-parser';
export { formatViewDiagnostic, isExecutableView, looksLikeView, parseView } from './view-parser';
export type { FormatViewOptions } from './view-serializer';
export { ViewFormatError, formatView } from './view-serializer';
export type { Rgb } from './colors';
export { CYCLE_COLOR, formatHexColor, isColor, isPmchartColor, resolveColor } from './colors';
export type { StandardView } from './standard-views';
export { STANDARD_VIEWS, standardView } from './standard-views';
