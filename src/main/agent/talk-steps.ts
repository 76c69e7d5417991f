/**
 * The per-step setup of a session's turn (loop.ts `prepareStep`): read the session's mode and model choice from
 * the store (session/talk.ts) at the start of every step, and answer the step's model, offered tools, system
 * prompt and permission side. So a switch made while a step runs takes effect at the next step, and the tools a
 * request offers are exactly those the loop guard accepts calls to (a withheld tool is refused, not run).
 *
 * Models: the turn starts with the model it was given; when the stored choice names another provider or model,
 * that model is created (once per choice) for the following steps. A choice whose model cannot be created (its
 * key is missing) keeps the model in use, and the step-start part records the model that really answered.
 */
import type { LanguageModel } from 'ai';
import type { Result } from '../../shared/errors';
import type { SessionStore } from '../session/store';
import { readTalk } from '../session/talk';
import type { TalkChoice } from '../session/talk';
import { toSdkTools } from '../tools/registry';
import type { ToolDefinition } from '../tools/types';
import type { PermissionGate } from './permission/gate';
import type { StepBase, StepSetup } from './loop';
import { findMode, systemForMode, toolsForMode } from './modes';
import type { ModeDefinition } from './modes';
import { readOnlyBashGate } from './modes-bash';

/** A model with the label recorded on the steps it answers (`provider/model`). */
export interface LabelledModel {
  model: LanguageModel;
  label: string;
}

export interface TalkStepsInput {
  store: SessionStore;
  sessionId: string;
  /** The modes in force (read at every step: settings may change). */
  modes: () => ModeDefinition[];
  tools: ToolDefinition[];
  system: string;
  gate: Pick<PermissionGate, 'askFor' | 'guardFor'>;
  /** The model the turn started with, and the choice it was made from. */
  start: LabelledModel & { choice: Pick<TalkChoice, 'provider' | 'model'> };
  /** Creates the model a changed choice names. */
  createModel: (choice: Pick<TalkChoice, 'provider' | 'model'>) => Result<LabelledModel>;
}

/** `provider/modelId` of a model object (or the id itself for a model given by name). */
export function modelLabel(model: LanguageModel): string {
  return typeof model === 'string' ? model : `${model.provider}/${model.modelId}`;
}

const choiceKey = (c: Pick<TalkChoice, 'provider' | 'model'>): string => `${c.provider ?? ''}\u0000${c.model ?? ''}`;

/** The `prepareStep` of a turn, and the modes its steps ran in (first first). */
export function talkSteps(input: TalkStepsInput): {
  prepareStep: (base?: StepBase) => StepSetup;
  modesUsed: string[];
} {
  const models = new Map<string, LabelledModel>([[choiceKey(input.start.choice), input.start]]);
  let current: LabelledModel = input.start;
  const modesUsed: string[] = [];
  const prepareStep = (base?: StepBase): StepSetup => {
    const choice = readTalk(input.store.db, input.sessionId);
    const mode = findMode(input.modes(), choice?.mode);
    if (choice) {
      const key = choiceKey(choice);
      let found = models.get(key);
      if (!found) {
        const made = input.createModel(choice);
        if (made.ok) models.set(key, made.value);
        found = made.ok ? made.value : current;
      }
      current = found;
    }
    if (modesUsed.at(-1) !== mode.name) modesUsed.push(mode.name);
    const tools = toolsForMode(base?.tools ?? input.tools, mode);
    return {
      model: current.model,
      modelLabel: current.label,
      mode: mode.name,
      tools,
      sdkTools: toSdkTools(tools),
      system: systemForMode(base?.system ?? input.system, mode),
      gate: mode.bash === 'read-only' ? readOnlyBashGate(input.gate, mode.name) : input.gate,
    };
  };
  return { prepareStep, modesUsed };
}
