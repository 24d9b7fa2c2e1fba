/** What every rule here shares: its messages (one shape for every finding), reporting, metadata. */
import type { SecretLintRuleContext, SecretLintRuleCreator } from '@secretlint/types';
import { casedWord } from './label-words';

interface Props {
  NAME: string;
  VALUE: string;
}

/** `authorization` → `Authorization`, `set-cookie` → `Set-Cookie`: as a person reads them. */
function headerName(name = ''): string {
  return name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());
}

/**
 * `slack-app-token` → `Slack app token`, `github-token` → `GitHub token`: a rule's id as a person
 * reads it, names written as the rule sets write them.
 */
export function humanize(id: string): string {
  const words = id.split('-').map(casedWord).join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Secretlint hands each message's props back as the result's `data` (the value, to locate it). */
const messages = {
  JWT: { en: () => 'JSON Web Token' },
  AUTH_HEADER: { en: (p?: Props) => `${headerName(p?.NAME)} header` },
  COOKIE: { en: (p?: Props) => `${headerName(p?.NAME)} header` },
  CURL_CREDENTIAL: { en: (p?: Props) => `Credential in curl option ${p?.NAME ?? ''}` },
  URL_PARAM: { en: (p?: Props) => `Secret in field “${p?.NAME ?? ''}”` },
  URL_PASSWORD: { en: () => 'Password in a URL' },
  GITLEAKS: { en: (p?: Props) => humanize(p?.NAME ?? '') },
  OWN_KEY: { en: () => 'Your API key for this service' },
  SERVICE_KEY: { en: () => 'An API key for this service' },
  AWS_SECRET: { en: () => 'AWS secret access key' },
};

type MessageId = keyof typeof messages;

/** What one of our findings is, for a person: its message, whichever rule reported it. */
export function describeFinding(messageId: string, data: unknown): string | undefined {
  if (!(messageId in messages)) return undefined;
  return messages[messageId as MessageId].en(data as Props | undefined);
}

export function report(
  context: SecretLintRuleContext,
  id: MessageId,
  start: number,
  end: number,
  value: string,
  name = '',
): void {
  const t = context.createTranslator(messages);
  context.report({ message: t(id, { NAME: name, VALUE: value }), range: [start, end] });
}

/**
 * Secretlint drops a message when a later one has the same range and the same words, whichever
 * rule reported it. Two rules can word one finding alike ("AWS secret access key" from ours and
 * from Nosey Parker's `aws-secret-access-key`), and the precedence `scan.ts` gives the rules
 * must not depend on that: each message carries its rule's id, so only a rule's own repeats go.
 */
function withOwnMessages(context: SecretLintRuleContext, id: string): SecretLintRuleContext {
  return {
    ...context,
    report: (descriptor) =>
      context.report({
        ...descriptor,
        message: { ...descriptor.message, message: `${descriptor.message.message} [${id}]` },
      }),
  };
}

export function rule(
  id: string,
  scan: (content: string, context: SecretLintRuleContext) => void,
): SecretLintRuleCreator {
  return {
    messages,
    meta: {
      id,
      recommended: true,
      type: 'scanner',
      supportedContentTypes: ['text'],
      docs: { url: 'https://github.com/bounty-desk/bounty-desk/blob/main/docs/security.md' },
    },
    create: (context) => ({ file: (source) => scan(source.content, withOwnMessages(context, id)) }),
  };
}
