import { describe, expect, it } from 'vitest';
import { isLocked, withFileLock, withFileLocks } from './file-lock';

const tick = (ms = 5): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('withFileLock', () => {
  it('serialises holders of one path in FIFO order', async () => {
    const log: string[] = [];
    const job = (name: string, ms: number) =>
      withFileLock('/x/a', async () => {
        log.push(`${name}+`);
        await tick(ms);
        log.push(`${name}-`);
        return name;
      });
    const results = await Promise.all([job('1', 20), job('2', 1), job('3', 5)]);
    expect(results).toEqual(['1', '2', '3']);
    expect(log).toEqual(['1+', '1-', '2+', '2-', '3+', '3-']);
    expect(isLocked('/x/a')).toBe(false);
  });

  it('lets different paths run in parallel', async () => {
    const log: string[] = [];
    await Promise.all([
      withFileLock('/x/a', async () => {
        log.push('a+');
        await tick(20);
        log.push('a-');
      }),
      withFileLock('/x/b', async () => {
        log.push('b+');
        await tick(1);
        log.push('b-');
      }),
    ]);
    expect(log).toEqual(['a+', 'b+', 'b-', 'a-']);
  });

  it('releases the lock when the holder throws', async () => {
    await expect(withFileLock('/x/c', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await withFileLock('/x/c', async () => 'next')).toBe('next');
  });

  it('withFileLocks takes overlapping sets in sorted order without deadlock', async () => {
    const log: string[] = [];
    await Promise.all([
      withFileLocks(['/x/b', '/x/a', '/x/b'], async () => {
        log.push('ab+');
        await tick(10);
        log.push('ab-');
      }),
      withFileLocks(['/x/a', '/x/b'], async () => {
        log.push('ba+');
        log.push('ba-');
      }),
    ]);
    expect(log).toEqual(['ab+', 'ab-', 'ba+', 'ba-']);
  });
});
