/**
 * The `webfetch` section of settings.json: `{ "allowHosts": ["localhost:3000", "*.corp.example"] }` — hosts a
 * fetch may reach although they are (or resolve to) local, private or link-local addresses. Entry syntax and
 * matching: hop.ts. Absent: no such host (every local and private address is refused).
 */
import { z } from 'zod';

export const webfetchSettingsSchema = z.object({
  allowHosts: z.array(z.string().trim().min(1)).default([]),
});

export type WebfetchSettings = z.infer<typeof webfetchSettingsSchema>;
