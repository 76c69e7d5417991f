/**
 * The page's web-host credential (protocol: src/shared/web-auth.ts). Kept in this origin's localStorage — scheme,
 * host and port — so no other server on 127.0.0.1 can read it (a cookie would be sent to all of them), and every
 * tab and reload of this host's pages signs in with it.
 */
import { CHECK_PATH, CREDENTIAL_STORAGE_KEY, EXCHANGE_PATH } from '../../../shared/web-auth';

/** The one-time token of the URL fragment (`#token=…`), removed from the address bar either way. */
function takeToken(): string | null {
  const token = new URLSearchParams(location.hash.slice(1)).get('token');
  if (token !== null) history.replaceState(null, '', `${location.pathname}${location.search}`);
  return token;
}

function stored(): string | null {
  try {
    return localStorage.getItem(CREDENTIAL_STORAGE_KEY);
  } catch {
    return null; // storage turned off: the token below still signs this page in, until a reload
  }
}

/**
 * The credential to present: a fresh one when the URL carries a token the host accepts (kept for the next load),
 * else the stored one, else null (the page is not signed in).
 */
export async function signIn(): Promise<string | null> {
  const token = takeToken();
  if (token) {
    try {
      const r = await fetch(EXCHANGE_PATH, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      });
      const body = (await r.json()) as { ok: boolean; value?: { credential?: string } };
      const credential = body.ok ? body.value?.credential : undefined;
      if (credential) {
        try {
          localStorage.setItem(CREDENTIAL_STORAGE_KEY, credential);
        } catch {
          // not kept: a reload will need a new URL
        }
        return credential;
      }
    } catch {
      // the host is not reachable; a stored credential may still work once it is
    }
  }
  return stored();
}

/** Asks the host whether `credential` is valid: true / false, or null when the host could not be reached. */
export async function credentialStillValid(credential: string): Promise<boolean | null> {
  try {
    const r = await fetch(CHECK_PATH, { method: 'POST', headers: { authorization: `Bearer ${credential}` } });
    if (r.status === 204) return true;
    return r.status === 401 || r.status === 403 ? false : null;
  } catch {
    return null;
  }
}

/** Drops the stored credential (the host refused it). */
export function forgetCredential(): void {
  try {
    localStorage.removeItem(CREDENTIAL_STORAGE_KEY);
  } catch {
    // nothing stored
  }
}
