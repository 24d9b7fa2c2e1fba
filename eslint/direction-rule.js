// @ts-check
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pathAliases } from '../scripts/path-aliases.mjs';
import { layerOf, mayImport } from './layers.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ALIASES = Object.entries(pathAliases());

/** Repository-relative, with `/` on every system. */
function fromRoot(/** @type {string} */ path) {
  return relative(ROOT, path).split(sep).join('/');
}

/**
 * `layers/direction`: a file of src/ imports only its own folder and the folders eslint/layers.js
 * lets it import. Relative specifiers are resolved against the importing file, aliases
 * (`@shared/…`) by tsconfig.base.json's paths; package names are the business of
 * `no-restricted-imports`.
 * @type {import('eslint').Rule.RuleModule}
 */
export const directionRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports point down the layers of eslint/layers.js' },
    schema: [],
    messages: {
      upward:
        '{{from}} ({{says}}) may not import {{to}}: nothing points upward or sideways (eslint/layers.js).',
    },
  },
  create(context) {
    const file = fromRoot(context.filename);
    const layer = layerOf(file);
    if (!layer) return {};
    const from = layer;
    /** @param {import('estree').Node | null | undefined} source */
    function check(source) {
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      const spec = source.value;
      const alias = ALIASES.find(([name]) => spec === name || spec.startsWith(`${name}/`));
      if (!alias && !spec.startsWith('.')) return;
      const target = fromRoot(
        alias
          ? resolve(alias[1], `.${spec.slice(alias[0].length)}`)
          : resolve(dirname(context.filename), spec),
      );
      if (!target.startsWith('src/') || mayImport(from, target)) return;
      context.report({
        node: source,
        messageId: 'upward',
        data: { from: from.folder, says: from.says, to: target },
      });
    }
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

export default { rules: { direction: directionRule } };
