/**
 * Pass 2, trim_end: trailing whitespace ignored — the model dropped the spaces or tab a line of the file ends with
 * (or added some). Leading whitespace still counts: indentation tells a method from a function of the same name.
 */
import type { Pass } from '../types';

export const trimEnd: Pass = { name: 'trim_end', key: (line) => line.trimEnd() };
