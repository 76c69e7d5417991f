/**
 * Settings: permission rules — each a permission (or `*`), an optional tool, a pattern and allow / ask / deny;
 * added, edited and removed here, saved with the form. Rules are read again at every tool call (main), so a saved
 * rule applies at the next one. Order matters (the last matching rule decides, a deny wins), so a new rule is added
 * last.
 */
import type React from 'react';
import { PermissionKindSchema } from '../../../../shared/permission-schemas';
import type { RuleDoc } from '../../../../shared/settings-schemas';
import { useStore } from '../../stores';
import { NEW_RULE, withItem } from '../../stores/settings-form';
import { Issues } from './fields';

const PERMISSIONS = [...PermissionKindSchema.options, '*'];
const ACTIONS: RuleDoc['action'][] = ['allow', 'ask', 'deny'];

function RuleRow({ rule, index }: { rule: RuleDoc; index: number }): React.JSX.Element {
  const edit = useStore((s) => s.editForm);
  const set = (value: RuleDoc | undefined): void =>
    edit((d) => ({ ...d, permissions: withItem(d.permissions, index, value) }));
  const at = `permissions.${index}`;
  const { tool: _tool, ...noTool } = rule;
  void _tool;
  return (
    <li className="rule-row" data-testid="rule-row">
      <select
        aria-label="Permission"
        data-testid="rule-permission"
        value={rule.permission}
        onChange={(e) => set({ ...rule, permission: e.target.value })}
      >
        {PERMISSIONS.map((p) => (
          <option key={p} value={p}>
            {p}
          </option>
        ))}
      </select>
      <input
        aria-label="Tool (optional)"
        data-testid="rule-tool"
        placeholder="any tool"
        value={rule.tool ?? ''}
        onChange={(e) => set(e.target.value ? { ...rule, tool: e.target.value } : noTool)}
      />
      <input
        aria-label="Pattern"
        data-testid="rule-pattern"
        placeholder={rule.permission === 'bash' ? 'e.g. npm test' : 'e.g. **/.env*'}
        value={rule.pattern}
        onChange={(e) => set({ ...rule, pattern: e.target.value })}
      />
      <select
        aria-label="Action"
        data-testid="rule-action"
        value={rule.action}
        onChange={(e) => set({ ...rule, action: e.target.value as RuleDoc['action'] })}
      >
        {ACTIONS.map((a) => (
          <option key={a} value={a}>
            {a}
          </option>
        ))}
      </select>
      <button aria-label="Remove rule" data-testid="remove-rule" onClick={() => set(undefined)}>
        Remove
      </button>
      <Issues path={at} />
    </li>
  );
}

export function Rules(): React.JSX.Element | null {
  const rules = useStore((s) => s.form?.permissions);
  const edit = useStore((s) => s.editForm);
  if (!rules) return null;
  return (
    <fieldset data-testid="rules">
      <legend>Permission rules</legend>
      <p className="muted">
        Checked at every tool call, top to bottom: a deny wins, otherwise the last matching rule decides. Bash patterns
        are a command&apos;s first words (<code>npm test</code>); paths are globs (<code>**/.env*</code>).
      </p>
      {rules.length === 0 ? (
        <p className="muted">No rules: the built-in defaults decide (reads and edits allowed, commands asked).</p>
      ) : (
        <ul className="rule-list">
          {rules.map((r, i) => (
            <RuleRow key={i} rule={r} index={i} />
          ))}
        </ul>
      )}
      <div className="row-buttons">
        <button
          data-testid="add-rule"
          onClick={() => edit((d) => ({ ...d, permissions: [...d.permissions, { ...NEW_RULE }] }))}
        >
          Add rule
        </button>
      </div>
    </fieldset>
  );
}
