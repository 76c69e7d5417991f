/**
 * The limits agree: for every contract call, the largest input its schema accepts, written as the web host's
 * frame `{ id, call, input }` with every string at its longest and made only of characters JSON writes as six
 * bytes (`\u0000`), must fit the WebSocket frame limit. A string or array without a bound fails here by name.
 */
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { calls, CALL_NAMES } from '../../shared/contract';
import { IMPORT_PART_MAX_CHARS, SESSION_IMPORT_MAX_CHARS, WS_MAX_FRAME_BYTES } from '../../shared/limits';

type Def = {
  type: string;
  checks?: { _zod: { def: { check: string; maximum?: number } } }[];
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  values?: unknown[];
  entries?: Record<string, string>;
  in?: z.ZodType;
};

function maxOf(def: Def): number | undefined {
  return def.checks?.map((c) => c._zod.def).find((c) => c.check === 'max_length')?.maximum;
}

/** The worst-case JSON size (bytes) of a value `schema` accepts; unbounded parts are pushed to `unbounded`. */
function worstBytes(schema: z.ZodType, path: string, unbounded: string[]): number {
  const capped = (z.globalRegistry.get(schema) as { maxJsonBytes?: number } | undefined)?.maxJsonBytes;
  if (capped !== undefined) return capped;
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  switch (def.type) {
    case 'string': {
      const max = maxOf(def);
      if (max === undefined) unbounded.push(path);
      return 2 + 6 * (max ?? 0);
    }
    case 'number':
      return 24;
    case 'boolean':
      return 5;
    case 'null':
      return 4;
    case 'literal':
      return Math.max(...(def.values ?? []).map((v) => JSON.stringify(v).length * 6));
    case 'enum':
      return Math.max(...Object.values(def.entries ?? {}).map((v) => JSON.stringify(v).length));
    case 'optional':
    case 'nullable':
    case 'default':
      return Math.max(4, worstBytes(def.innerType as z.ZodType, path, unbounded));
    case 'union':
      return Math.max(...(def.options ?? []).map((o, i) => worstBytes(o, `${path}|${i}`, unbounded)));
    case 'array': {
      const max = maxOf(def);
      if (max === undefined) unbounded.push(`${path}[]`);
      return 2 + (max ?? 0) * (1 + worstBytes(def.element as z.ZodType, `${path}[]`, unbounded));
    }
    case 'object':
      return (
        2 +
        Object.entries(def.shape ?? {}).reduce(
          (sum, [key, value]) => sum + JSON.stringify(key).length + 2 + worstBytes(value, `${path}.${key}`, unbounded),
          0,
        )
      );
    default:
      unbounded.push(`${path} (${def.type})`);
      return 0;
  }
}

describe('contract inputs fit one WebSocket frame', () => {
  test('every call, at its largest and worst-escaped, is under WS_MAX_FRAME_BYTES', () => {
    const unbounded: string[] = [];
    const sizes: Record<string, number> = {};
    for (const name of CALL_NAMES) {
      const input = worstBytes(calls[name].input, name, unbounded);
      sizes[name] = `{"id":9007199254740991,"call":${JSON.stringify(name)},"input":}`.length + input;
    }
    expect(unbounded).toEqual([]);
    const over = Object.entries(sizes).filter(([, bytes]) => bytes > WS_MAX_FRAME_BYTES);
    expect(over).toEqual([]);
    const largest = Object.entries(sizes).sort((a, b) => b[1] - a[1])[0];
    console.log(`[limits] largest frame: ${largest?.[0]} ${largest?.[1]} bytes of ${WS_MAX_FRAME_BYTES}`);
  });

  test('an import of the whole limit is a whole number of parts that each fit', () => {
    expect(Math.ceil(SESSION_IMPORT_MAX_CHARS / IMPORT_PART_MAX_CHARS)).toBe(25);
    expect(6 * IMPORT_PART_MAX_CHARS + 200).toBeLessThan(WS_MAX_FRAME_BYTES);
  });
});
