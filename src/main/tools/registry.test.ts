/**
 * The tool registry: the built-in tools are offered under unique names (read, edit, write, apply_patch, list, glob,
 * grep, bash, …), each SDK declaration has the tool's own input schema and no execute (the loop runs tools
 * itself), and two tools under one name are refused (the schema declared and the tool run would differ).
 */
import { describe, expect, it } from 'vitest';
import { defaultTools, findTool, toSdkTools } from './registry';

describe('tool registry', () => {
  it('offers every built-in tool once, declared without execute', () => {
    const tools = defaultTools();
    const names = tools.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    for (const n of ['read', 'edit', 'write', 'apply_patch', 'list', 'glob', 'grep', 'bash'])
      expect(names).toContain(n);
    const sdk = toSdkTools(tools);
    expect(Object.keys(sdk)).toEqual(names);
    for (const t of tools) {
      expect(sdk[t.name]?.inputSchema).toBe(t.input);
      expect(sdk[t.name]?.execute).toBeUndefined();
    }
    expect(findTool(tools, 'edit')?.name).toBe('edit');
    expect(findTool(tools, 'no_such_tool')).toBeUndefined();
  });

  it('refuses two tools under one name', () => {
    const [first] = defaultTools();
    if (!first) throw new Error('no tools');
    expect(() => toSdkTools([first, { ...first }])).toThrow(/declared twice/);
  });
});
