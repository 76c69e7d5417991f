/**
 * Vitest setup file of the `main` test project (vitest.config.ts): the test files of one fork share one module
 * graph there (`isolate: false`), so what a module remembers for the whole process is reset after each file. Today
 * that is child-env.ts's remembered secret names — a property test registers hundreds of random ones, and a later
 * file's children must not lose their variables to them. Test support only; the app never loads it.
 */
import { afterAll } from 'vitest';
import { forgetRememberedNames } from './child-env';

afterAll(() => forgetRememberedNames());
