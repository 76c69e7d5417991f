/**
 * Pass 3, trim: whitespace at both ends ignored — the model re-indented the context lines. Inner whitespace still
 * counts (`a  b` is not `a b`).
 */
import type { Pass } from '../types';

export const trim: Pass = { name: 'trim', key: (line) => line.trim() };
