// The PDU client against pmcd 6.0.3 for the request variants LiveContext does not use and
// for pmcd's error answers, each as pdu-protocol.md records it: instance lookups by id and by
// name (§3.9), PMNS_CHILD of a leaf (§3.4), unknown names, PMIDs, instance domains, help
// text and label types, a domain-511 PMID in a fetch (§3.11, §5.4), and a PMNS_IDS for a
// PMID pmcd does not know.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTcpTransport } from '../../node/tcp-transport';
import { PM_ERR_INDOM, PM_ERR_INST, PM_ERR_NAME, PM_ERR_NOAGENT, PM_ERR_NONLEAF, PM_ERR_PMID, PM_ERR_TEXT, PM_ERR_TYPE } from '../errors';
import { pmid, PM_IN_NULL, type InDom, type PmId } from '../types';
import { PduClient } from './client';
import { PM_TEXT_HELP, PM_TEXT_ONELINE, PM_TEXT_PMID } from './constants';

describe('PduClient on pmcd 6.0.3', () => {
  let c: PduClient;
  let load: PmId;
  let loadIndom: InDom;
  beforeAll(async () => {
    c = await PduClient.connect(await openTcpTransport('localhost', 44321));
    load = (await c.lookupNames(['kernel.all.load'])).pmids[0];
    loadIndom = (await c.desc(load)).indom;
  });
  afterAll(() => c.close());

  it('looks one instance up by id (name only) and by name (id only), as §3.9 records', async () => {
    const byId = await c.instances({ indom: loadIndom, inst: 5, name: '' });
    expect([[...byId.instances], byId.names]).toEqual([[PM_IN_NULL], ['5 minute']]);
    const byName = await c.instances({ indom: loadIndom, inst: PM_IN_NULL, name: '15 minute' });
    expect([[...byName.instances], byName.names]).toEqual([[15], ['']]);
    // PMDAs built on libpcp_pmda match a name up to its first space.
    expect([...(await c.instances({ indom: loadIndom, inst: PM_IN_NULL, name: '15' })).instances]).toEqual([15]);
    await expect(c.instances({ indom: loadIndom, inst: 7, name: '' })).rejects.toMatchObject({ code: PM_ERR_INST });
    await expect(c.instances({ indom: (loadIndom + 1000) as InDom, inst: PM_IN_NULL, name: '' })).rejects.toMatchObject({ code: PM_ERR_INDOM });
  });

  it('answers name, PMID, text and label mistakes with the documented errors, and stays usable', async () => {
    await expect(c.lookupNames(['no.such.metric'])).rejects.toMatchObject({ code: PM_ERR_NAME });
    await expect(c.lookupNames(['kernel.all'])).rejects.toMatchObject({ code: PM_ERR_NONLEAF });
    expect(await c.lookupNames(['no.such', 'also.not'])).toEqual({ sts: 0, pmids: [0xffffffff, 0xffffffff] });
    await expect(c.desc(pmid(60, 4000, 1))).rejects.toMatchObject({ code: PM_ERR_PMID });
    await expect(c.nameAll(pmid(60, 4000, 1))).rejects.toMatchObject({ code: PM_ERR_PMID });
    await expect(c.text(pmid(60, 4000, 1), PM_TEXT_ONELINE | PM_TEXT_PMID)).rejects.toMatchObject({ code: PM_ERR_TEXT });
    await expect(c.labels(load, 16 | 8)).rejects.toMatchObject({ code: PM_ERR_TYPE });
    expect(await c.text(load, PM_TEXT_HELP | PM_TEXT_PMID)).toBe('');
    expect((await c.children('kernel.all.load', true)).names).toEqual([]);
    expect(c.closed).toBe(false);
  });

  it('fetches a domain-511 PMID as PM_ERR_NOAGENT and an unknown item as PM_ERR_PMID', async () => {
    await c.profile({ state: 0, entries: [] });
    const { result, flags } = await c.fetch([load, pmid(511, 1, 1), pmid(60, 4000, 1)], () => 4);
    expect(flags).toBe(0);
    expect(result.sets.map((s) => s.numval)).toEqual([3, PM_ERR_NOAGENT, PM_ERR_PMID]);
  });
});
