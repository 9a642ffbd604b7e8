// One dispatcher from a PDU's type code to its decoder, for code that sees PDUs of any kind:
// the bridge validating what a browser sends before pmcd sees it, and the fuzz test. The
// client does not use it: it knows which reply type it expects.
import { DecodeError, PM_ERR_IPC } from '../errors';
import type { PmId } from '../types';
import {
  PDU_CREDS,
  PDU_DESC,
  PDU_DESC_IDS,
  PDU_DESC_REQ,
  PDU_DESCS,
  PDU_ERROR,
  PDU_FETCH,
  PDU_HIGHRES_FETCH,
  PDU_HIGHRES_RESULT,
  PDU_INSTANCE,
  PDU_INSTANCE_REQ,
  PDU_LABEL,
  PDU_LABEL_REQ,
  PDU_PMNS_CHILD,
  PDU_PMNS_IDS,
  PDU_PMNS_NAMES,
  PDU_PMNS_TRAVERSE,
  PDU_PROFILE,
  PDU_RESULT,
  PDU_TEXT,
  PDU_TEXT_REQ,
  pduTypeName,
} from './constants';
import { decodeCreds } from './creds-pdu';
import { decodeDesc, decodeDescIds, decodeDescReq, decodeDescs } from './desc-pdu';
import { decodeError } from './error-pdu';
import { decodeFetch } from './fetch-pdu';
import { decodeInstance, decodeInstanceReq } from './instance-pdu';
import { decodeLabel, decodeLabelReq } from './label-pdu';
import type { Pdu } from './pdu-buffer';
import { decodeNameList, decodePmnsIds, decodePmnsNodeRequest } from './pmns-pdu';
import { decodeProfile } from './profile-pdu';
import { decodeResult } from './result-pdu';
import { decodeText, decodeTextReq } from './text-pdu';

/**
 * Decodes any PDU of the protocol by its type code and returns the decoded body; throws
 * DecodeError (PM_ERR_IPC) for a malformed one or an unknown type. In-situ values and vtype-0
 * blocks of a RESULT are read as `typeOf` says (signed 32-bit when it says nothing).
 */
export function decodePdu(pdu: Pdu, peer: string, typeOf: (id: PmId) => number | undefined = () => undefined): unknown {
  switch (pdu.type) {
    case PDU_ERROR:
      return decodeError(pdu, peer);
    case PDU_RESULT:
    case PDU_HIGHRES_RESULT:
      return decodeResult(pdu, peer, typeOf);
    case PDU_PROFILE:
      return decodeProfile(pdu, peer);
    case PDU_FETCH:
    case PDU_HIGHRES_FETCH:
      return decodeFetch(pdu, peer);
    case PDU_DESC_REQ:
      return decodeDescReq(pdu, peer);
    case PDU_DESC:
      return decodeDesc(pdu, peer);
    case PDU_DESC_IDS:
      return decodeDescIds(pdu, peer);
    case PDU_DESCS:
      return decodeDescs(pdu, peer);
    case PDU_INSTANCE_REQ:
      return decodeInstanceReq(pdu, peer);
    case PDU_INSTANCE:
      return decodeInstance(pdu, peer);
    case PDU_TEXT_REQ:
      return decodeTextReq(pdu, peer);
    case PDU_TEXT:
      return decodeText(pdu, peer);
    case PDU_CREDS:
      return decodeCreds(pdu, peer);
    case PDU_PMNS_IDS:
      return decodePmnsIds(pdu, peer);
    case PDU_PMNS_NAMES:
      return decodeNameList(pdu, peer);
    case PDU_PMNS_CHILD:
    case PDU_PMNS_TRAVERSE:
      return decodePmnsNodeRequest(pdu, peer);
    case PDU_LABEL_REQ:
      return decodeLabelReq(pdu, peer);
    case PDU_LABEL:
      return decodeLabel(pdu, peer);
    default:
      throw new DecodeError(PM_ERR_IPC, peer, 4, `PDU ${pduTypeName(pdu.type)}`, `no decoder for PDU type ${pduTypeName(pdu.type)}`);
  }
}
