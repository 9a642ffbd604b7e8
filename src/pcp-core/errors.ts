// PCP error codes and their texts, as pmErrStr prints them in PCP 6.0.3 (`pmerr -l`), and
// PmError, the one error type the core throws for expected failures. Subclasses add context
// (where in which file, which PDU, which expression) without changing the code.

export const PM_ERR_GENERIC = -12345;
export const PM_ERR_PMNS = -12346;
export const PM_ERR_NOPMNS = -12347;
export const PM_ERR_DUPPMNS = -12348;
export const PM_ERR_TEXT = -12349;
export const PM_ERR_APPVERSION = -12350;
export const PM_ERR_VALUE = -12351;
export const PM_ERR_TIMEOUT = -12353;
export const PM_ERR_NODATA = -12354;
export const PM_ERR_RESET = -12355;
export const PM_ERR_NAME = -12357;
export const PM_ERR_PMID = -12358;
export const PM_ERR_INDOM = -12359;
export const PM_ERR_INST = -12360;
export const PM_ERR_TYPE = -12397;
export const PM_ERR_UNIT = -12361;
export const PM_ERR_CONV = -12362;
export const PM_ERR_TRUNC = -12363;
export const PM_ERR_SIGN = -12364;
export const PM_ERR_PROFILE = -12365;
export const PM_ERR_IPC = -12366;
export const PM_ERR_TLS = -12414;
export const PM_ERR_EOF = -12368;
export const PM_ERR_NOTHOST = -12369;
export const PM_ERR_EOL = -12370;
export const PM_ERR_MODE = -12371;
export const PM_ERR_LABEL = -12372;
export const PM_ERR_LOGREC = -12373;
export const PM_ERR_LOGFILE = -12375;
export const PM_ERR_NOTARCHIVE = -12374;
export const PM_ERR_NOCONTEXT = -12376;
export const PM_ERR_PROFILESPEC = -12377;
export const PM_ERR_PMID_LOG = -12378;
export const PM_ERR_INDOM_LOG = -12379;
export const PM_ERR_INST_LOG = -12380;
export const PM_ERR_NOPROFILE = -12381;
export const PM_ERR_NOAGENT = -12386;
export const PM_ERR_PERMISSION = -12387;
export const PM_ERR_CONNLIMIT = -12388;
export const PM_ERR_AGAIN = -12389;
export const PM_ERR_ISCONN = -12390;
export const PM_ERR_NOTCONN = -12391;
export const PM_ERR_NEEDPORT = -12392;
export const PM_ERR_NONLEAF = -12394;
export const PM_ERR_PMDANOTREADY = -13394;
export const PM_ERR_PMDAREADY = -13393;
export const PM_ERR_BOTCH = -12442;
export const PM_ERR_TOOSMALL = -12443;
export const PM_ERR_TOOBIG = -12444;
export const PM_ERR_FAULT = -12445;
export const PM_ERR_THREAD = -12398;
export const PM_ERR_NOCONTAINER = -12399;
export const PM_ERR_BADSTORE = -12400;
export const PM_ERR_LOGOVERLAP = -12401;
export const PM_ERR_LOGHOST = -12402;
export const PM_ERR_LOGCHANGETYPE = -12404;
export const PM_ERR_LOGCHANGESEM = -12405;
export const PM_ERR_LOGCHANGEINDOM = -12406;
export const PM_ERR_LOGCHANGEUNITS = -12407;
export const PM_ERR_NEEDCLIENTCERT = -12408;
export const PM_ERR_BADDERIVE = -12409;
export const PM_ERR_NOLABELS = -12410;
export const PM_ERR_PMDAFENCED = -12411;
export const PM_ERR_RECTYPE = -12412;
export const PM_ERR_FEATURE = -12413;
export const PM_ERR_NYI = -21344;

const PCP_ERRORS: ReadonlyMap<number, readonly [symbol: string, text: string]> = new Map([
  [PM_ERR_GENERIC, ["PM_ERR_GENERIC", "Generic error, already reported above"]],
  [PM_ERR_PMNS, ["PM_ERR_PMNS", "Problems parsing PMNS definitions"]],
  [PM_ERR_NOPMNS, ["PM_ERR_NOPMNS", "PMNS not accessible"]],
  [PM_ERR_DUPPMNS, ["PM_ERR_DUPPMNS", "Attempt to reload the PMNS"]],
  [PM_ERR_TEXT, ["PM_ERR_TEXT", "One-line or help text is not available"]],
  [PM_ERR_APPVERSION, ["PM_ERR_APPVERSION", "Metric not supported by this version of monitored application"]],
  [PM_ERR_VALUE, ["PM_ERR_VALUE", "Missing metric value(s)"]],
  [PM_ERR_TIMEOUT, ["PM_ERR_TIMEOUT", "Timeout waiting for a response from PMCD"]],
  [PM_ERR_NODATA, ["PM_ERR_NODATA", "Empty archive log file"]],
  [PM_ERR_RESET, ["PM_ERR_RESET", "PMCD reset or configuration change"]],
  [PM_ERR_NAME, ["PM_ERR_NAME", "Unknown metric name"]],
  [PM_ERR_PMID, ["PM_ERR_PMID", "Unknown or illegal metric identifier"]],
  [PM_ERR_INDOM, ["PM_ERR_INDOM", "Unknown or illegal instance domain identifier"]],
  [PM_ERR_INST, ["PM_ERR_INST", "Unknown or illegal instance identifier"]],
  [PM_ERR_TYPE, ["PM_ERR_TYPE", "Unknown or illegal metric type"]],
  [PM_ERR_UNIT, ["PM_ERR_UNIT", "Illegal pmUnits specification"]],
  [PM_ERR_CONV, ["PM_ERR_CONV", "Impossible value or scale conversion"]],
  [PM_ERR_TRUNC, ["PM_ERR_TRUNC", "Truncation in value conversion"]],
  [PM_ERR_SIGN, ["PM_ERR_SIGN", "Negative value in conversion to unsigned"]],
  [PM_ERR_PROFILE, ["PM_ERR_PROFILE", "Explicit instance identifier(s) required"]],
  [PM_ERR_IPC, ["PM_ERR_IPC", "IPC protocol failure"]],
  [PM_ERR_TLS, ["PM_ERR_TLS", "TLS protocol failure"]],
  [PM_ERR_EOF, ["PM_ERR_EOF", "IPC channel closed"]],
  [PM_ERR_NOTHOST, ["PM_ERR_NOTHOST", "Operation requires context with host source of metrics"]],
  [PM_ERR_EOL, ["PM_ERR_EOL", "End of PCP archive log"]],
  [PM_ERR_MODE, ["PM_ERR_MODE", "Illegal mode specification"]],
  [PM_ERR_LABEL, ["PM_ERR_LABEL", "Illegal label record at start of a PCP archive log file"]],
  [PM_ERR_LOGREC, ["PM_ERR_LOGREC", "Corrupted record in a PCP archive log"]],
  [PM_ERR_LOGFILE, ["PM_ERR_LOGFILE", "Missing PCP archive log file"]],
  [PM_ERR_NOTARCHIVE, ["PM_ERR_NOTARCHIVE", "Operation requires context with archive source of metrics"]],
  [PM_ERR_NOCONTEXT, ["PM_ERR_NOCONTEXT", "Attempt to use an illegal context"]],
  [PM_ERR_PROFILESPEC, ["PM_ERR_PROFILESPEC", "NULL pmInDom with non-NULL instlist"]],
  [PM_ERR_PMID_LOG, ["PM_ERR_PMID_LOG", "Metric not defined in the PCP archive log"]],
  [PM_ERR_INDOM_LOG, ["PM_ERR_INDOM_LOG", "Instance domain identifier not defined in the PCP archive log"]],
  [PM_ERR_INST_LOG, ["PM_ERR_INST_LOG", "Instance identifier not defined in the PCP archive log"]],
  [PM_ERR_NOPROFILE, ["PM_ERR_NOPROFILE", "Missing profile - protocol botch"]],
  [PM_ERR_NOAGENT, ["PM_ERR_NOAGENT", "No PMCD agent for domain of request"]],
  [PM_ERR_PERMISSION, ["PM_ERR_PERMISSION", "No permission to perform requested operation"]],
  [PM_ERR_CONNLIMIT, ["PM_ERR_CONNLIMIT", "PMCD connection limit for this host exceeded"]],
  [PM_ERR_AGAIN, ["PM_ERR_AGAIN", "Try again. Information not currently available"]],
  [PM_ERR_ISCONN, ["PM_ERR_ISCONN", "Already Connected"]],
  [PM_ERR_NOTCONN, ["PM_ERR_NOTCONN", "Not Connected"]],
  [PM_ERR_NEEDPORT, ["PM_ERR_NEEDPORT", "A non-null port name is required"]],
  [PM_ERR_NONLEAF, ["PM_ERR_NONLEAF", "Metric name is not a leaf in PMNS"]],
  [PM_ERR_PMDANOTREADY, ["PM_ERR_PMDANOTREADY", "PMDA is not yet ready to respond to requests"]],
  [PM_ERR_PMDAREADY, ["PM_ERR_PMDAREADY", "PMDA is now responsive to requests"]],
  [PM_ERR_BOTCH, ["PM_ERR_BOTCH", "Internal inconsistency detected or assertion failed"]],
  [PM_ERR_TOOSMALL, ["PM_ERR_TOOSMALL", "Insufficient elements in list"]],
  [PM_ERR_TOOBIG, ["PM_ERR_TOOBIG", "Result size exceeded"]],
  [PM_ERR_FAULT, ["PM_ERR_FAULT", "QA fault injected"]],
  [PM_ERR_THREAD, ["PM_ERR_THREAD", "Operation not supported for multi-threaded applications"]],
  [PM_ERR_NOCONTAINER, ["PM_ERR_NOCONTAINER", "Container not found"]],
  [PM_ERR_BADSTORE, ["PM_ERR_BADSTORE", "Bad input to pmstore"]],
  [PM_ERR_LOGOVERLAP, ["PM_ERR_LOGOVERLAP", "Archives overlap in time"]],
  [PM_ERR_LOGHOST, ["PM_ERR_LOGHOST", "Archives differ by host"]],
  [PM_ERR_LOGCHANGETYPE, ["PM_ERR_LOGCHANGETYPE", "The type of a metric has changed in an archive"]],
  [PM_ERR_LOGCHANGESEM, ["PM_ERR_LOGCHANGESEM", "The semantics of a metric has changed in an archive"]],
  [PM_ERR_LOGCHANGEINDOM, ["PM_ERR_LOGCHANGEINDOM", "The instance domain of a metric has changed in an archive"]],
  [PM_ERR_LOGCHANGEUNITS, ["PM_ERR_LOGCHANGEUNITS", "The units of a metric have changed in an archive"]],
  [PM_ERR_NEEDCLIENTCERT, ["PM_ERR_NEEDCLIENTCERT", "PMCD requires a client certificate"]],
  [PM_ERR_BADDERIVE, ["PM_ERR_BADDERIVE", "Derived metric definition failed"]],
  [PM_ERR_NOLABELS, ["PM_ERR_NOLABELS", "No support for metric label metadata"]],
  [PM_ERR_PMDAFENCED, ["PM_ERR_PMDAFENCED", "PMDA is currently fenced and unable to respond to requests"]],
  [PM_ERR_RECTYPE, ["PM_ERR_RECTYPE", "Incorrect record type in an archive"]],
  [PM_ERR_FEATURE, ["PM_ERR_FEATURE", "Archive feature not supported"]],
  [PM_ERR_NYI, ["PM_ERR_NYI", "Functionality not yet implemented"]],
]);

/** Texts of the negative errno values that reach clients (Linux numbering, glibc wording). */
const ERRNO_TEXT: ReadonlyMap<number, string> = new Map([
  [1, "Operation not permitted"],
  [2, "No such file or directory"],
  [4, "Interrupted system call"],
  [5, "Input/output error"],
  [9, "Bad file descriptor"],
  [11, "Resource temporarily unavailable"],
  [12, "Cannot allocate memory"],
  [13, "Permission denied"],
  [14, "Bad address"],
  [16, "Device or resource busy"],
  [17, "File exists"],
  [20, "Not a directory"],
  [21, "Is a directory"],
  [22, "Invalid argument"],
  [24, "Too many open files"],
  [28, "No space left on device"],
  [32, "Broken pipe"],
  [34, "Numerical result out of range"],
  [61, "No data available"],
  [62, "Timer expired"],
  [71, "Protocol error"],
  [74, "Bad message"],
  [75, "Value too large for defined data type"],
  [84, "Invalid or incomplete multibyte or wide character"],
  [95, "Operation not supported"],
  [98, "Address already in use"],
  [99, "Cannot assign requested address"],
  [101, "Network is unreachable"],
  [103, "Software caused connection abort"],
  [104, "Connection reset by peer"],
  [107, "Transport endpoint is not connected"],
  [110, "Connection timed out"],
  [111, "Connection refused"],
  [112, "Host is down"],
  [113, "No route to host"],
]);
export const ENOENT = -2;
export const EIO = -5;
export const EACCES = -13;
export const ENOTDIR = -20;
export const EISDIR = -21;
export const EINVAL = -22;
export const ECONNREFUSED = -111;
export const ECONNRESET = -104;
export const ETIMEDOUT = -110;
export const EPROTO = -71;
export const EBADMSG = -74;

/** pmErrStr: the text libpcp prints for an error code. */
export function pmErrStr(code: number): string {
  const pcp = PCP_ERRORS.get(code);
  if (pcp) return pcp[1];
  const errno = ERRNO_TEXT.get(-code);
  if (errno) return errno;
  if (code <= -12345 && code > -13500) return `No such PMAPI error code (${code})`;
  return `Unknown error ${-code}`;
}

/** The PM_ERR_* symbol of a code, or undefined for errno values and unknown codes. */
export function pmErrSymbol(code: number): string | undefined {
  return PCP_ERRORS.get(code)?.[0];
}

/**
 * An expected failure with a PCP error code. `message` is pmErrStr's text unless a caller
 * gives a more specific one; `context` says where (file, host, offset, metric, expression).
 */
export class PmError extends Error {
  override readonly name: string = 'PmError';
  constructor(
    readonly code: number,
    message: string = pmErrStr(code),
    readonly context: string = '',
  ) {
    super(message);
  }

  /** The message with its context first, as a CLI prints it: "file.0: Corrupted record ...". */
  describe(): string {
    return this.context ? `${this.context}: ${this.message}` : this.message;
  }
}

/** Bytes that do not decode: carries the source name, absolute offset and record kind. */
export class DecodeError extends PmError {
  override readonly name = 'DecodeError';
  constructor(
    code: number,
    readonly source: string,
    readonly offset: number,
    readonly record: string,
    readonly detail: string,
  ) {
    super(code, pmErrStr(code), `${source}${record ? `[${record}]` : ''} at offset ${offset}`);
  }

  override describe(): string {
    return `${this.context}: ${this.message} (${this.detail})`;
  }
}

export function isPmError(e: unknown): e is PmError {
  return e instanceof PmError;
}
