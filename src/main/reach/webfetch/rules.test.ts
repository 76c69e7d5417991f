import { describe, expect, it } from 'vitest';
import { alwaysOffer } from '../../agent/permission/always';
import { decidePermission } from '../../agent/permission/rules';
import type { PermissionRule } from '../../agent/permission/rules';
import { SettingsSchema as settingsSchema } from '../../agent/settings/schema';

const fetchOf = (host: string) => ({
  tool: 'webfetch',
  permission: 'webfetch' as const,
  patterns: [host],
  title: `fetch https://${host}/`,
});

describe('the webfetch permission, per host pattern', () => {
  it('asks by default, follows host patterns, and a deny wins', () => {
    const rules: PermissionRule[] = [
      { permission: 'webfetch', pattern: '*.python.org', action: 'allow' },
      { permission: 'webfetch', pattern: 'evil.python.org', action: 'deny' },
    ];
    expect(decidePermission([], [], fetchOf('docs.python.org')).action).toBe('ask');
    expect(decidePermission(rules, [], fetchOf('docs.python.org')).action).toBe('allow');
    expect(decidePermission(rules, [], fetchOf('python.org.evil.test')).action).toBe('ask');
    expect(decidePermission(rules, [], fetchOf('evil.python.org')).action).toBe('deny');
    const always = [{ kind: 'exact' as const, permission: 'webfetch' as const, values: ['evil.python.org'] }];
    expect(decidePermission(rules, always, fetchOf('evil.python.org')).action).toBe('deny');
  });

  it('"always" saves only the host asked', () => {
    expect(alwaysOffer(fetchOf('docs.python.org'))).toEqual({
      exact: ['docs.python.org'],
      editable: false,
      note: 'only this host',
    });
  });

  it('settings take webfetch rules and allowed hosts, and refuse an empty host', () => {
    const base = { defaultProvider: 'x', providers: [], permissions: [] };
    const parsed = settingsSchema.safeParse({
      ...base,
      permissions: [{ permission: 'webfetch', pattern: '*.python.org', action: 'allow' }],
      webfetch: { allowHosts: ['localhost:3000'] },
    });
    expect(parsed.success && parsed.data.webfetch).toEqual({ allowHosts: ['localhost:3000'] });
    const bad = settingsSchema.safeParse({ ...base, webfetch: { allowHosts: [' '] } });
    expect(bad.success ? 'ok' : bad.error.issues[0]?.path.join('.')).toBe('webfetch.allowHosts.0');
  });
});
