/**
 * `[REDACTED:<kind>]`: what stands where a credential was, in a draft, a message, a file copy or a
 * diagnostics bundle. The engine writes it and the screens quote it, so it is shared; light on
 * purpose, so main's diagnostics export takes it without the scanner.
 */
export const redactionMark = (kind: string): string => `[REDACTED:${kind}]`;

/** Every mark in a text (a new global RegExp each call: `g` keeps `lastIndex`). */
export const redactionMarks = (): RegExp => /\[REDACTED:[a-z0-9-]+\]/g;

/** Whether a text already holds a mark (or starts one, as a value cut out of it may). */
export const holdsRedactionMark = (text: string): boolean => text.includes('[REDACTED');
