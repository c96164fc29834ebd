import dns from 'node:dns/promises';
import fs from 'node:fs/promises';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { mayReachPrivate, type OutboundPolicy } from '../../outbound/outboundHttp';
import { isPrivateAddress } from '../../outbound/privateAddress';
import { isUnderAllowedRoot } from './folderSource';
import { SourceUnavailable } from './sourceReader';

export interface GitRemote {
  url: string;
  transport: 'file' | 'https';
}

/**
 * The repository URL git may fetch, or a permanent refusal: `file://` only under a folder root
 * the operator allowed (SLUICE_SOURCE_FOLDER_ROOTS), `https://` only to a host the outbound
 * policy lets through, nothing else (ssh and git:// reach hosts the policy cannot check). A URL
 * with credentials is refused too: settings are stored and shown in the clear.
 *
 * git resolves the host again when it connects, so a DNS answer that changes between this check
 * and the fetch is not caught the way outboundFetch catches it; the check still stops every URL
 * that names or resolves to a private address when checked.
 */
export async function checkedRemote(
  raw: string,
  folderRoots: readonly string[],
  policy: OutboundPolicy,
): Promise<GitRemote> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SourceUnavailable('the git URL is not valid', true);
  }
  if (url.username !== '' || url.password !== '')
    throw new SourceUnavailable('the git URL carries credentials, which sources do not keep in their settings', true);
  if (url.protocol === 'file:') {
    const dir = url.host === '' ? fileURLToPath(url) : null;
    // As for a folder source: a repository that is not there (yet, or a mount that is down) is waited for.
    if (dir !== null && !(await fs.stat(dir).catch(() => null))?.isDirectory())
      throw new SourceUnavailable(`${raw} does not exist or is not a folder`, false);
    if (dir === null || !(await isUnderAllowedRoot(dir, folderRoots)))
      throw new SourceUnavailable(`${raw} is not under a root SLUICE_SOURCE_FOLDER_ROOTS allows`, true);
    return { url: url.href, transport: 'file' };
  }
  if (url.protocol !== 'https:')
    throw new SourceUnavailable(`git URLs must be https:// or file://, not ${url.protocol}`, true);
  if (!mayReachPrivate(url, policy)) await refusePrivate(url);
  return { url: url.href, transport: 'https' };
}

async function refusePrivate(url: URL): Promise<void> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (net.isIP(host) !== 0) addresses = [host];
  else {
    try {
      addresses = (await dns.lookup(host, { all: true })).map((a) => a.address);
    } catch (error) {
      throw new SourceUnavailable(`cannot resolve the git host ${host}`, false, { cause: error });
    }
  }
  if (addresses.some(isPrivateAddress))
    throw new SourceUnavailable(
      `the git host ${host} is a private, loopback or link-local address, which the outbound policy refuses (SLUICE_OUTBOUND_ALLOW_HOSTS)`,
      true,
    );
}
