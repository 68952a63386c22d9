import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { addressRefusal } from './address-policy.js';

/** Where one attempt connects: the endpoint's URL and the checked address its host resolved to. */
export interface Target {
  url: URL;
  address: string;
  family: 4 | 6;
}

/** The endpoint may not be connected to; the attempt fails with this message and nothing is sent. */
export class RefusedEndpoint extends Error {}

export type Lookup = (host: string) => Promise<{ address: string; family: number }[]>;

const systemLookup: Lookup = (host) => dnsLookup(host, { all: true, verbatim: true });

/**
 * Resolves the endpoint's host now, at delivery time, and refuses it when any address it resolves
 * to is not allowed (a host that also names a metadata address is not trusted for its others).
 * The caller connects to the returned address, never resolving again, so a DNS answer that
 * changes between this check and the connection (rebinding) cannot redirect the request.
 */
export async function resolveEndpoint(endpoint: string, allowPrivate: boolean, lookup = systemLookup): Promise<Target> {
  const url = new URL(endpoint);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: { address: string; family: number }[];
  if (isIP(host) !== 0) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await lookup(host);
    } catch (err) {
      throw new RefusedEndpoint(`${host} could not be resolved: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  const [first] = addresses;
  if (first === undefined) throw new RefusedEndpoint(`${host} resolves to no address`);
  for (const { address } of addresses) {
    const refusal = addressRefusal(address, allowPrivate);
    if (refusal !== null) throw new RefusedEndpoint(`refused ${host}: ${refusal}`);
  }
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
