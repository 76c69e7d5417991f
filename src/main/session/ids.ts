/**
 * Identifiers: `<prefix>_<time base36><counter base36><random>` — sortable by creation time within a process and
 * unique across processes (8 random base36 characters).
 */
let last = 0;
let counter = 0;

/** A new id such as `msg_0mhx3k2a00a1b2c3d4`. `prefix` names the kind (prj, ses, msg, prt, per). */
export function newId(prefix: string): string {
  const now = Date.now();
  counter = now === last ? counter + 1 : 0;
  last = now;
  const rand = Math.random().toString(36).slice(2, 10).padEnd(8, '0');
  return `${prefix}_${now.toString(36).padStart(9, '0')}${counter.toString(36).padStart(3, '0')}${rand}`;
}
