/**
 * The `trust.*` calls: list the trusted folders, trust or revoke one (src/main/reach/trust/store.ts). Trusting
 * takes the folder's real path and must name an existing folder (`not_a_directory` otherwise, nothing saved);
 * revoking a folder that is not in the list is not an error (the answer shows the list as it is).
 */
import { statSync } from 'node:fs';
import { fail, ok } from '../../shared/errors';
import type { Result } from '../../shared/errors';
import type { TrustView } from '../../shared/reach-schemas';
import type { TrustStore } from '../reach/trust/store';

function isFolder(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** The list as the renderer sees it. */
export function trustView(trust: TrustStore): TrustView {
  const problem = trust.problem();
  return { folders: trust.list(), ...(problem ? { problem } : {}) };
}

/** Trust (`trusted: true`) or revoke a folder; answers the list after the change. Error `not_a_directory`. */
export async function setTrust(
  trust: TrustStore,
  input: { path: string; trusted: boolean },
): Promise<Result<TrustView>> {
  if (input.trusted) {
    if (!isFolder(input.path))
      return fail('not_a_directory', `${input.path} is not a folder.`, 'Trust the project folder itself.', {
        path: input.path,
      });
    await trust.trust(input.path);
  } else await trust.revoke(input.path);
  return ok(trustView(trust));
}
