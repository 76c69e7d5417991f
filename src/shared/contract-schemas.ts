/**
 * Zod schemas of the call shapes that cross the renderer ⇄ main boundary (DESIGN §1) beyond the data model
 * (model.ts), permissions (permission-schemas.ts), history (history-schemas.ts), review (review-schemas.ts) and
 * settings (settings-schemas.ts): a session's detail and the app's info. Types are inferred from the schemas.
 */
import { z } from 'zod';
import { MessageWithPartsSchema, SessionSchema } from './model';
import { PermissionAskedSchema } from './permission-schemas';
import { SettingsLoadErrorSchema } from './settings-schemas';

/**
 * Everything the UI needs to draw a session: the session, its messages with their parts, whether a turn runs,
 * and the permission questions waiting for an answer (kept by the core's gate, so a reloaded window shows them).
 */
export const SessionDetailSchema = z.object({
  session: SessionSchema,
  messages: z.array(MessageWithPartsSchema),
  /** True while a turn runs. */
  busy: z.boolean(),
  /** Permission questions waiting for an answer, oldest first. */
  asks: z.array(PermissionAskedSchema),
  /** Messages admitted and not yet promoted (the admission queue), oldest first. */
  queued: z
    .array(z.object({ id: z.string(), sessionId: z.string(), text: z.string(), time: z.number(), steer: z.boolean() }))
    .optional(),
});

export const AppInfoSchema = z.object({
  version: z.string(),
  transport: z.enum(['electron', 'web']),
  /** True when a native folder dialog exists (Electron); the web host asks for a typed path instead. */
  nativeDialog: z.boolean(),
  /** True when no provider is configured yet: the first-run screen offers the sample replay. */
  firstRun: z.boolean(),
  /** Present when settings.json exists but cannot be read (the home screen says so instead of "first run"). */
  settingsError: SettingsLoadErrorSchema.optional(),
});

export type AppInfo = z.infer<typeof AppInfoSchema>;
export type SessionDetail = z.infer<typeof SessionDetailSchema>;
