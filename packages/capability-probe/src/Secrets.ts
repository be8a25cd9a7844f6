/**
 * Secret shapes, following the prefixes gitleaks' default rules key on. A banner or path that
 * contains one is never trusted nor echoed, whether or not the secret is live.
 */
const SECRET_SHAPES: ReadonlyArray<{ readonly kind: string; readonly pattern: RegExp }> = [
  { kind: "private key", pattern: /-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----/ },
  { kind: "GitHub token", pattern: /\b(?:ghp|gho|ghu|ghs|ghr)_[0-9A-Za-z]{36}\b|\bgithub_pat_\w{82}\b/ },
  {
    kind: "GitLab token",
    pattern: /\bgl(?:pat|ptt|rt|dt|ft|soat|cbt|imt|agent|oas|ffct)-[0-9A-Za-z_-]{20,}|\bGR1348941[\w-]{20}/
  },
  { kind: "npm token", pattern: /\bnpm_[A-Za-z0-9]{36}\b/ },
  {
    kind: "Slack token",
    pattern: /\bxox[abeoprs]-[0-9A-Za-z-]{10,}|\bxoxe\.xox[bp]-\d-[0-9A-Za-z]{100,}|\bxapp-\d-[0-9A-Za-z-]{10,}|hooks\.slack\.com\/(?:services|workflows|triggers)\//
  },
  { kind: "AWS access key", pattern: /\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b/ },
  { kind: "Google API key", pattern: /\bAIza[\w-]{35}/ },
  { kind: "Google OAuth token", pattern: /\bya29\.[\w-]{20,}/ },
  { kind: "Hugging Face token", pattern: /\b(?:hf_|api_org_)[A-Za-z]{34}\b/ },
  { kind: "SendGrid key", pattern: /\bSG\.[\w-]{22}\.[\w-]{43}\b/ },
  { kind: "Stripe key", pattern: /\b(?:sk|rk)_(?:live|test|prod)_[0-9A-Za-z]{10,}/ },
  { kind: "OpenAI or Anthropic key", pattern: /\bsk-(?:ant-|proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/ },
  { kind: "PyPI token", pattern: /\bpypi-AgEIcHlwaS5vcmc[\w-]{50,}/ },
  { kind: "JSON Web Token", pattern: /\bey[A-Za-z0-9_-]{10,}\.ey[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/ },
  { kind: "bearer or basic credential", pattern: /\b(?:bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}/i },
  {
    kind: "password assignment",
    pattern: /\b(?:password|passwd|pwd|passphrase|secret|api[_-]?key|access[_-]?token|auth[_-]?token)\s*[:=]\s*\S/i
  },
  { kind: "URL with credentials", pattern: /\b[A-Za-z][A-Za-z0-9+.-]{0,30}:\/\/[^\s/?#@]{1,256}@/ }
]

/** The kind of the first secret shape found in `text` (e.g. "GitHub token"), or null. */
export const secretKind = (text: string): string | null =>
  SECRET_SHAPES.find(({ pattern }) => pattern.test(text))?.kind ?? null

/**
 * Whether `text` contains something shaped like a credential: a private key block; a GitHub,
 * GitLab, npm, Slack, AWS, Google, Hugging Face, SendGrid, Stripe, OpenAI/Anthropic or PyPI token;
 * a JWT; a bearer/basic credential; a `password=`-style assignment; or a URL with userinfo.
 */
export const containsSecret = (text: string): boolean => secretKind(text) !== null
