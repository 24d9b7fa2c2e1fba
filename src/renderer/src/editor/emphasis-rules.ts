/**
 * Typed `*…*` and `**…**` become emphasis only where CommonMark reads them so: the text inside
 * neither starts nor ends with a space. Milkdown's own rules took "Both *.globex.example and *"
 * (two scope wildcards) for emphasis as the second `*` was typed: shown in italics, stored as
 * "Both *.globex.example and* .globex.test…".
 *
 * A star typed is emphasis only when it plainly means it, stricter than CommonMark: the text
 * inside starts with a letter, a digit or an opening bracket or quote, and ends with a letter, a
 * digit or closing punctuation. Wildcards written close together ("(*.example.com,*.example.org)",
 * "*.example.com; see `*.example.com`") are emphasis to CommonMark, and were turned into italics
 * as the second `*` was typed, both stars gone. Ctrl+I still makes emphasis of anything.
 */
import { markRule } from '@milkdown/kit/prose';
import { $inputRule } from '@milkdown/kit/utils';
import {
  emphasisSchema,
  emphasisStarInputRule,
  strongInputRule,
  strongSchema,
} from '@milkdown/kit/preset/commonmark';

/**
 * `*text*` after anything but `*` or `\`; the text starts with a letter, a digit or an opening
 * bracket or quote, and ends with a letter, a digit or closing punctuation.
 */
export const EMPHASIS_STAR =
  /(?:^|[^*\\])\*(?=[\p{L}\p{N}(["'‘“])([^*]*[\p{L}\p{N})\]"'’”.!?:])\*$/u;

/** `**text**` or `__text__` not inside a word, path or address; no space just inside. */
export const STRONG = /(?<![\w:/\\])(?:\*\*|__)(?=[^\s*_])([^*_]*[^\s*_\\])(?:\*\*|__)(?![\w/])$/;

export const flankingEmphasisRule = $inputRule((ctx) =>
  markRule(EMPHASIS_STAR, emphasisSchema.type(ctx), {
    getAttr: () => ({ marker: '*' }),
    updateCaptured: ({ fullMatch, start }) =>
      !fullMatch.startsWith('*') ? { fullMatch: fullMatch.slice(1), start: start + 1 } : {},
  }),
);

export const flankingStrongRule = $inputRule((ctx) =>
  markRule(STRONG, strongSchema.type(ctx), {
    getAttr: (match) => ({ marker: match[0].startsWith('*') ? '*' : '_' }),
  }),
);

/** Milkdown's rules these replace (filtered out of the preset). */
export const replacedInputRules: readonly unknown[] = [emphasisStarInputRule, strongInputRule];
