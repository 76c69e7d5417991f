/**
 * Small protocol pieces: what Landfall tells servers it can do, how it answers settings requests, and the end
 * position of a text in LSP terms (lines split at \n, \r\n or \r; characters in UTF-16 code units, which is
 * what JavaScript string offsets already are).
 */
import type { ClientCapabilities, Position } from 'vscode-languageserver-protocol';

/** The capabilities announced at initialize: push with versions, pull (also dynamically registered), settings. */
export function clientCapabilities(): ClientCapabilities {
  return {
    general: { positionEncodings: ['utf-16'] },
    window: { workDoneProgress: true },
    workspace: {
      configuration: true,
      workspaceFolders: true,
      didChangeConfiguration: { dynamicRegistration: true },
      didChangeWatchedFiles: { dynamicRegistration: true },
      diagnostics: { refreshSupport: true },
    },
    textDocument: {
      synchronization: { dynamicRegistration: false, didSave: true, willSave: false, willSaveWaitUntil: false },
      publishDiagnostics: {
        versionSupport: true,
        relatedInformation: false,
        codeDescriptionSupport: true,
        tagSupport: { valueSet: [1, 2] },
      },
      diagnostic: { dynamicRegistration: true, relatedDocumentSupport: false },
    },
  };
}

/**
 * Answer workspace/configuration: one entry per item, the value at the item's dotted `section` in `settings`,
 * else `{}` — never null (DESIGN §7: the html and prisma servers crash on null).
 */
export function answerConfiguration(settings: Record<string, unknown>, items: { section?: string }[]): unknown[] {
  return items.map((item) => {
    if (!item.section) return settings;
    let cur: unknown = settings;
    for (const key of item.section.split('.')) {
      cur = cur !== null && typeof cur === 'object' ? (cur as Record<string, unknown>)[key] : undefined;
    }
    return cur === undefined || cur === null ? {} : cur;
  });
}

/** The position just past the last character of `text` (0-based line and UTF-16 character). */
export function endPosition(text: string): Position {
  let line = 0;
  let lineStart = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 13 /* \r */) {
      if (text.charCodeAt(i + 1) === 10) i++;
      line++;
      lineStart = i + 1;
    } else if (c === 10 /* \n */) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, character: text.length - lineStart };
}
