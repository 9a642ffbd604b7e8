// PDU type codes, header layout, feature bits, state-change flags and size limits of the
// PMAPI client ⇄ pmcd protocol, version 2 (pdu-protocol.md §1.2, §1.4, §1.8, §2.3, §5.1).
// Every other pdu/ file speaks in these names; they keep libpcp's spelling so they grep
// against PCP's sources.

export const PDU_ERROR = 0x7000;
export const PDU_RESULT = 0x7001;
export const PDU_PROFILE = 0x7002;
export const PDU_FETCH = 0x7003;
export const PDU_DESC_REQ = 0x7004;
export const PDU_DESC = 0x7005;
export const PDU_INSTANCE_REQ = 0x7006;
export const PDU_INSTANCE = 0x7007;
export const PDU_TEXT_REQ = 0x7008;
export const PDU_TEXT = 0x7009;
export const PDU_CONTROL_REQ = 0x700a;
export const PDU_CREDS = 0x700c;
export const PDU_PMNS_IDS = 0x700d;
export const PDU_PMNS_NAMES = 0x700e;
export const PDU_PMNS_CHILD = 0x700f;
export const PDU_PMNS_TRAVERSE = 0x7010;
export const PDU_ATTR = 0x7011;
export const PDU_LABEL_REQ = 0x7012;
export const PDU_LABEL = 0x7013;
export const PDU_HIGHRES_FETCH = 0x7014;
export const PDU_HIGHRES_RESULT = 0x7015;
export const PDU_DESC_IDS = 0x7016;
export const PDU_DESCS = 0x7017;

const PDU_NAMES: ReadonlyMap<number, string> = new Map([
  [PDU_ERROR, 'ERROR'],
  [PDU_RESULT, 'RESULT'],
  [PDU_PROFILE, 'PROFILE'],
  [PDU_FETCH, 'FETCH'],
  [PDU_DESC_REQ, 'DESC_REQ'],
  [PDU_DESC, 'DESC'],
  [PDU_INSTANCE_REQ, 'INSTANCE_REQ'],
  [PDU_INSTANCE, 'INSTANCE'],
  [PDU_TEXT_REQ, 'TEXT_REQ'],
  [PDU_TEXT, 'TEXT'],
  [PDU_CONTROL_REQ, 'CONTROL_REQ'],
  [PDU_CREDS, 'CREDS'],
  [PDU_PMNS_IDS, 'PMNS_IDS'],
  [PDU_PMNS_NAMES, 'PMNS_NAMES'],
  [PDU_PMNS_CHILD, 'PMNS_CHILD'],
  [PDU_PMNS_TRAVERSE, 'PMNS_TRAVERSE'],
  [PDU_ATTR, 'ATTR'],
  [PDU_LABEL_REQ, 'LABEL_REQ'],
  [PDU_LABEL, 'LABEL'],
  [PDU_HIGHRES_FETCH, 'HIGHRES_FETCH'],
  [PDU_HIGHRES_RESULT, 'HIGHRES_RESULT'],
  [PDU_DESC_IDS, 'DESC_IDS'],
  [PDU_DESCS, 'DESCS'],
]);

/** The PDU type's name as libpcp's __pmPDUTypeStr prints it, or its hex code. */
export function pduTypeName(type: number): string {
  return PDU_NAMES.get(type) ?? `TYPE-0x${(type >>> 0).toString(16)}`;
}

/** Header: len i32 @0 (header included), type i32 @4, from i32 @8 (§1.2). */
export const PDU_HEADER_BYTES = 12;

/** Largest PDU pmcd accepts from a client (its -L default, §1.4). */
export const PDU_CLIENT_MAX_BYTES = 65536;

/**
 * Largest PDU this client accepts from pmcd. The protocol sets no limit (a full PMNS
 * traversal was 73 020 bytes); this cap only stops a corrupt length from making the
 * reassembler buffer without bound.
 */
export const PDU_SERVER_MAX_BYTES = 64 * 1024 * 1024;

/** Protocol version sent in CREDS and found in the hello (§2.2, §2.5). */
export const PDU_VERSION2 = 2;

/** CREDS credential type for the protocol version (§2.5). */
export const CVERSION = 1;

/** Feature bits of the hello's feature word and CREDS flags (§2.3). */
export const PDU_FLAG_SECURE = 0x0001;
export const PDU_FLAG_COMPRESS = 0x0002;
export const PDU_FLAG_AUTH = 0x0004;
export const PDU_FLAG_CREDS_REQD = 0x0008;
export const PDU_FLAG_SECURE_ACK = 0x0010;
export const PDU_FLAG_CONTAINER = 0x0040;
export const PDU_FLAG_CERT_REQD = 0x0080;
export const PDU_FLAG_LABELS = 0x0200;
export const PDU_FLAG_HIGHRES = 0x0400;
export const PDU_FLAG_DESCS = 0x0800;

/** pmcd state-change bits carried by a positive ERROR code ahead of a fetch reply (§5.1). */
export const PMCD_ADD_AGENT = 1 << 0;
export const PMCD_RESTART_AGENT = 1 << 1;
export const PMCD_DROP_AGENT = 1 << 2;
export const PMCD_LABEL_CHANGE = 1 << 3;
export const PMCD_NAMES_CHANGE = 1 << 4;
/** 6.0.4 and later only (§9); decoded so a newer pmcd's flag is not mistaken for garbage. */
export const PMCD_HOSTNAME_CHANGE = 1 << 5;
export const PMCD_AGENT_CHANGE = PMCD_ADD_AGENT | PMCD_RESTART_AGENT | PMCD_DROP_AGENT;

/** Profile states, global and per indom (§3.10). */
export const PM_PROFILE_INCLUDE = 0;
export const PM_PROFILE_EXCLUDE = 1;

/** TEXT_REQ type bits (§3.15). */
export const PM_TEXT_ONELINE = 1;
export const PM_TEXT_HELP = 2;
export const PM_TEXT_PMID = 4;
export const PM_TEXT_INDOM = 8;

/** Rounds a byte count up to a multiple of 4 (§1.5). */
export function pad4(n: number): number {
  return (n + 3) & ~3;
}
