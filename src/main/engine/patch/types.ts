/**
 * The shapes of a parsed patch (the codex/opencode envelope, DESIGN §10 "parse → plan → apply") and of the plan
 * computed from it. Plain data: a test can build, print and compare every one of them.
 */
/** A pass of the locating ladder (passes/): two lines match at it when their keys are equal. */
export type PassName = 'exact' | 'trim_end' | 'trim' | 'unicode';

/** A pass: its name and its key function (passes/index.ts). */
export interface Pass {
  name: PassName;
  key: (line: string) => string;
}

/** One line of a hunk: context (in the file before and after), a removed line, or an added line. */
export interface HunkLine {
  kind: 'context' | 'delete' | 'add';
  /** The line's text without its marker and without a line terminator. */
  text: string;
}

/**
 * One hunk (codex calls it a chunk) of an Update File operation. `anchors` are the stacked `@@ text` lines, each
 * searched after the previous; `endOfFile` is set by a `*** End of File` marker and binds the hunk to the file's end.
 */
export interface PatchHunk {
  /** 1-based line in the patch text where the hunk starts (its first `@@` line, or its first line). */
  patchLine: number;
  anchors: string[];
  lines: HunkLine[];
  endOfFile: boolean;
}

/** Fields every file operation has. `path` is normalised (see paths.ts); `rawPath` is as written in the patch. */
interface OperationBase {
  path: string;
  rawPath: string;
  /** 1-based line of the operation's header in the patch text. */
  patchLine: number;
}

export interface AddOperation extends OperationBase {
  kind: 'add';
  /** The new file's text: every `+` line followed by "\n" ('' when the operation has no lines). */
  contents: string;
}

export interface DeleteOperation extends OperationBase {
  kind: 'delete';
}

export interface UpdateOperation extends OperationBase {
  kind: 'update';
  /** Normalised `*** Move to:` destination, if any (and the raw spelling). */
  movePath?: string;
  rawMovePath?: string;
  hunks: PatchHunk[];
}

export type PatchOperation = AddOperation | DeleteOperation | UpdateOperation;

/** A whole parsed patch: its operations in patch order (never empty). */
export interface ParsedPatch {
  operations: PatchOperation[];
}

/** One added line with its terminator ('' only for an unterminated last line). */
export interface AddedLine {
  text: string;
  eol: string;
}

/**
 * Old lines [oldStart, oldStart + oldCount) replaced by `added` (edits.ts builds them). Edits are sorted and never
 * overlap.
 */
export interface LineEdit {
  oldStart: number;
  oldCount: number;
  added: AddedLine[];
}

/** The change one file undergoes, as reported to the caller. */
export type ChangeKind = 'add' | 'update' | 'delete' | 'move';

/**
 * One file of a plan: the text before (null for an add) and after (null for a delete). For a move, `path` is the
 * source and `movePath` the destination; `after` is the destination's text.
 */
export interface PlannedFile {
  kind: ChangeKind;
  path: string;
  movePath?: string;
  before: string | null;
  after: string | null;
  /** Updates and moves: the edit script over the lines of `before` that gives `after` (edits.ts, commit-diff.ts). */
  edits?: LineEdit[];
}

/** Every file's new text, in patch order, computed before anything touches the disk. */
export interface PatchPlan {
  files: PlannedFile[];
}
