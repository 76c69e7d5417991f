/**
 * Where a JSON text first goes wrong, as a character offset — for telling a person which line of their
 * settings.json to fix. V8's JSON.parse names a position for some errors ("at position 42") but not for others
 * ("Unexpected token '}', …\"b\": }\" is not valid JSON"), so this walks the JSON grammar (RFC 8259) itself:
 * a recursive descent over value / object / array / string / literal that stops at the first character that
 * cannot continue a valid text. Pure: string in, number out.
 */

class SyntaxAt {
  constructor(readonly offset: number) {}
}

const LITERAL = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/;
const ESCAPES = '"\\/bfnrt';

/** Offset (0-based, UTF-16 units) of the first character where `text` stops being JSON; null when it is JSON. */
export function jsonErrorOffset(text: string): number | null {
  let i = 0;
  const n = text.length;
  const fail = (at = i): never => {
    throw new SyntaxAt(at);
  };
  const ws = (): void => {
    while (i < n && ' \t\n\r'.includes(text[i] as string)) i++;
  };
  const string = (): void => {
    i++; // the opening quote
    while (i < n) {
      const c = text[i] as string;
      if (c === '"') return void i++;
      if (c < ' ') fail();
      if (c === '\\') {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail(i + 1);
          i += 6;
        } else if (e !== undefined && ESCAPES.includes(e)) i += 2;
        else fail(i + 1);
        continue;
      }
      i++;
    }
    fail();
  };
  const members = (close: string, member: () => void): void => {
    i++; // the opening bracket
    ws();
    if (text[i] === close) return void i++;
    for (;;) {
      member();
      ws();
      if (text[i] === ',') i++;
      else if (text[i] === close) return void i++;
      else fail();
    }
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{')
      return members('}', () => {
        ws();
        if (text[i] !== '"') fail();
        string();
        ws();
        if (text[i] !== ':') fail();
        i++;
        value();
      });
    if (c === '[') return members(']', value);
    if (c === '"') return string();
    const lit = LITERAL.exec(text.slice(i, i + 400));
    if (!lit) fail();
    i += (lit as RegExpExecArray)[0].length;
  };
  try {
    value();
    ws();
    return i < n ? i : null;
  } catch (e) {
    if (e instanceof SyntaxAt) return e.offset;
    if (e instanceof RangeError) return null; // nested too deep to walk: no position rather than a crash
    throw e;
  }
}
