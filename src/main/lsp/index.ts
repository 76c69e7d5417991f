/**
 * The language-server layer (DESIGN §7). Create one `LspManager` per project root, hand
 * `manager.hook(sessionId)` to the tool context as `diagnostics`, call `endSession` when a session closes and
 * `shutdown` on app exit.
 */
export { LspManager } from './manager';
export type { LspManagerOptions } from './manager';
export type { DiagnosticsHook, DiagnosticsReport } from './hook';
export { BUILTIN_SERVERS, buildCatalog, lspSettingsSchema, timeoutsFor } from './servers';
export type { LspSettings, ServerSpec, ServerTimeouts } from './servers';
export { buildReport, MAX_ERRORS_PER_FILE, MAX_OTHER_FILES } from './report';
export type { FileOutcome, OtherFile } from './report';
