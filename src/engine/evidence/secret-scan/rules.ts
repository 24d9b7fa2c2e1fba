/**
 * Secretlint rules for what evidence of web bugs carries and secretlint's recommended preset does
 * not look for: JWTs, credential headers (in raw HTTP, curl commands and HAR's JSON), secrets in
 * URL query strings, and keys of this very service. They run in the same secretlint engine as
 * the preset, so every finding has one shape; the preset stays the main engine for vendor keys.
 */
export { describeFinding, humanize } from './rule-kit';
export {
  curlRule,
  headerRule,
  isCredentialHeader,
  isNotCredentialHeader,
  jwtRule,
  NOT_SESSION_COOKIE,
} from './http-rules';
export { fieldRule, isSecretField, randomLetters, urlCredentialRule } from './field-rules';
export {
  awsSecretRule,
  gitleaksRule,
  noseyParkerRule,
  proseSecretRule,
  serviceKeyRule,
  vendorShapeRule,
  type ServiceKeyOptions,
} from './key-rules';
