import { describe, expect, test } from 'vitest';
import { fenceWord, languageFor, type LanguageInfo } from './code-language';

const LANGUAGES: LanguageInfo[] = [
  { id: 'typescript', aliases: ['TypeScript', 'ts'], extensions: ['.ts', '.tsx'] },
  { id: 'javascript', aliases: ['JavaScript', 'js'], extensions: ['.js', '.jsx'] },
  { id: 'shell', aliases: ['Shell', 'sh'], extensions: ['.sh', '.bash', '.zsh'] },
  { id: 'python', aliases: ['Python', 'py'], extensions: ['.py'] },
];

describe('code block language', () => {
  test('the fence word of react-markdown class names; none for inline code', () => {
    expect(fenceWord('language-ts')).toBe('ts');
    expect(fenceWord('language-Python extra')).toBe('python');
    expect(fenceWord(undefined)).toBeNull();
    expect(fenceWord('not-a-language')).toBeNull();
  });

  test('by id, alias or extension, without regard to case; JSON through the JavaScript tokenizer', () => {
    expect(languageFor('typescript', LANGUAGES)).toBe('typescript');
    expect(languageFor('TS', LANGUAGES)).toBe('typescript');
    expect(languageFor('tsx', LANGUAGES)).toBe('typescript');
    expect(languageFor('bash', LANGUAGES)).toBe('shell');
    expect(languageFor('zsh', LANGUAGES)).toBe('shell');
    expect(languageFor('json', LANGUAGES)).toBe('javascript');
    expect(languageFor('console', LANGUAGES)).toBe('shell');
  });

  test('an unknown word is no language (plain text), never a guess', () => {
    expect(languageFor('brainfuck', LANGUAGES)).toBeNull();
    expect(languageFor('', LANGUAGES)).toBeNull();
    expect(languageFor('.ts', LANGUAGES)).toBeNull();
  });
});
