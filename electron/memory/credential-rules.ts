/**
 * The local layer of the credential check: shapes the maintained secretlint rule set does not cover,
 * or covers only in full-file form (a PEM header alone, `KEY=value` lines, headers, URLs with a
 * password, Azure connection strings, an entropy-gated generic key). Each rule yields raw matches;
 * credentials.ts merges them with secretlint's findings.
 */
export interface RawFinding {
  kind: string;
  index: number;
  length: number;
  /** The match names no secret itself (a PEM header), so it may be shown whole. */
  showWhole?: boolean;
}

/** Values that stand for a secret without being one: `<your key>`, `${TOKEN}`, `xxxx`, `changeme`… */
const PLACEHOLDER =
  /^(?:<.*>?|\[.*\]?|\$.*|%.*%|\{\{.*|\*+|x+|X+|\.{3,}.*|\u2026.*|changeme|change_me|redacted|null|nil|none|undefined|true|false|string|number|boolean|str|int|bytes|env|secret|password|passwd|pass|pwd|token|api[_-]?key|process\.env.*|os\.environ.*|os\.getenv.*|env\(.*|getenv.*|your[_-].*|my[_-].*|example.*|dummy.*|fake.*|test.*|placeholder.*|required|optional|hidden|masked|omitted|\(.*)$/i;

export function isPlaceholder(value: string): boolean {
  const v = value.replace(/^["'`]+|["'`;,]+$/g, '');
  if (PLACEHOLDER.test(v)) return true;
  // A run of one repeated character ("aaaaaaaa", "sk-xxxxxxxxxxxx") or a word repeated is not a secret.
  return /^(.)\1+$/.test(v) || /(.)\1{7,}$/.test(v) || /^([a-z]+[-_]?)\1+$/i.test(v);
}

function classesIn(value: string): number {
  return (
    Number(/[a-z]/.test(value)) +
    Number(/[A-Z]/.test(value)) +
    Number(/[0-9]/.test(value)) +
    Number(/[^A-Za-z0-9]/.test(value))
  );
}

/** Shannon entropy in bits per character. */
export function entropyOf(value: string): number {
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/**
 * Keys that hold a secret, matched anywhere inside an identifier (no `\b`: `aws_secret_access_key`,
 * `DB_PASSWORD`, `//registry.npmjs.org/:_authToken`), minus names that only describe one.
 */
const SECRET_KEY =
  /(?:password|passwd|passphrase|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|account[_-]?key|auth[_-]?key|credential|signing[_-]?key|encryption[_-]?key|master[_-]?key|session[_-]?key)/i;
const DESCRIPTIVE_KEY =
  /(?:^|[_.-])(?:file|path|dir|hint|len|length|count|size|policy|reset|url|uri|endpoint|type|name|id|ids|expiry|expires|expiresat|ttl|limit|header|field|env|var|prompt|rotation|min|max|required|enabled|strength|manager|store|storage|prefix|format|scope|scopes|usage|budget)$|tokens$|^(?:max|min|num|n)[_-]?tokens?|tokenizer|_tokens?_/i;

const ASSIGNMENT =
  /([A-Za-z0-9_.:/@-]*[A-Za-z0-9_])["']?[ \t]*(?:=|:=|:|=>)[ \t]*(["'`]?)([^\s"'`,;]{6,})\2/g;

function assignmentFindings(text: string): RawFinding[] {
  const out: RawFinding[] = [];
  const re = new RegExp(ASSIGNMENT.source, 'g');
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const key = m[1]!;
    const value = m[3]!;
    const valueAt = m.index + m[0].lastIndexOf(value);
    const bareKey = key.replace(/^.*[/:@]/, '');
    const secret =
      SECRET_KEY.test(bareKey) &&
      !DESCRIPTIVE_KEY.test(bareKey) &&
      !isPlaceholder(value) &&
      !/^\d+$/.test(value) &&
      !/^[a-z][a-z0-9+.-]*:\/\//i.test(value) &&
      // A lower-case word ("enabled", "rotated") is prose; a secret has a digit, a symbol, mixed case or length.
      (classesIn(value) >= 2 || value.length >= 12);
    if (secret)
      out.push({ kind: 'a password or secret in an assignment', index: valueAt, length: value.length });
    // A rejected value may hold the next assignment (`note: DB_PASSWORD=…`): look again from the value.
    else re.lastIndex = valueAt;
  }
  return out;
}

function headerFindings(text: string): RawFinding[] {
  const out: RawFinding[] = [];
  for (const m of text.matchAll(/\bBearer[ \t]+([A-Za-z0-9._~+/=-]{16,})/g)) {
    const token = m[1]!;
    if (isPlaceholder(token) || classesIn(token) < 2) continue;
    out.push({ kind: 'a Bearer token', index: m.index! + m[0].length - token.length, length: token.length });
  }
  for (const m of text.matchAll(/\bBasic[ \t]+([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])/g)) {
    const token = m[1]!;
    const decoded = Buffer.from(token, 'base64').toString('utf8');
    // Only a real `user:password` pair counts ("Basic authentication" decodes to noise).
    if (!/^[\x20-\x7e]+:[\x20-\x7e]+$/.test(decoded) || isPlaceholder(decoded.split(':')[1] ?? '')) continue;
    out.push({
      kind: 'a Basic authorization header',
      index: m.index! + m[0].length - token.length,
      length: token.length,
    });
  }
  return out;
}

function urlFindings(text: string): RawFinding[] {
  const out: RawFinding[] = [];
  for (const m of text.matchAll(
    /\b[a-z][a-z0-9+.-]{1,20}:\/\/([^\s:/@]{1,200}):([^\s/@]{1,200})@[^\s/@]/gi,
  )) {
    const password = m[2]!;
    if (isPlaceholder(password) || isPlaceholder(decodeURIComponentSafe(password))) continue;
    const at = m.index! + m[0].indexOf(`:${password}@`) + 1;
    out.push({ kind: 'a password in a URL', index: at, length: password.length });
  }
  return out;
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value; // URIError: not a valid %-escape, so the text is read as it stands
  }
}

const SHAPES: Array<{ kind: string; re: RegExp; group?: number; showWhole?: boolean }> = [
  {
    kind: 'a private key (PEM)',
    re: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g,
    showWhole: true,
  },
  {
    kind: 'an API key (sk-…)',
    re: /(?<![A-Za-z0-9])sk-(?:proj-|ant-(?:api\d\d-)?|live-|test-|svcacct-)?[A-Za-z0-9_-]{20,}/g,
  },
  { kind: 'a Stripe key', re: /(?<![A-Za-z0-9])[rsp]k_(?:live|test)_[A-Za-z0-9]{16,}/g },
  {
    kind: 'a GitHub token',
    re: /(?<![A-Za-z0-9])(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})/g,
  },
  { kind: 'an AWS access key id', re: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}(?![A-Za-z0-9])/g },
  { kind: 'a Slack token', re: /(?<![A-Za-z0-9])xox[abposre]-[A-Za-z0-9-]{10,}/g },
  {
    kind: 'a Slack webhook',
    re: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/_-]{20,}/g,
  },
  {
    kind: 'a Discord webhook',
    re: /https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/\d+\/[A-Za-z0-9_-]{30,}/g,
  },
  { kind: 'a Google API key', re: /(?<![A-Za-z0-9])AIza[0-9A-Za-z_-]{35}/g },
  { kind: 'a Google OAuth client secret', re: /(?<![A-Za-z0-9])GOCSPX-[A-Za-z0-9_-]{20,}/g },
  {
    kind: 'a JSON Web Token',
    re: /(?<![A-Za-z0-9])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
  },
  { kind: 'an npm token', re: /(?<![A-Za-z0-9])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g },
  { kind: 'a Hugging Face token', re: /(?<![A-Za-z0-9])hf_[A-Za-z0-9]{30,}/g },
  {
    kind: 'a GitLab token',
    re: /(?<![A-Za-z0-9])gl(?:pat|dt|rt|ptt|cbt|oas|ft|imt|agent|soat)-[A-Za-z0-9_-]{20,}/g,
  },
  { kind: 'a SendGrid key', re: /(?<![A-Za-z0-9])SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}/g },
  { kind: 'a Twilio key', re: /(?<![A-Za-z0-9])SK[0-9a-f]{32}(?![A-Za-z0-9])/g },
  { kind: 'a Mailgun key', re: /(?<![A-Za-z0-9])key-[0-9a-f]{32}(?![A-Za-z0-9])/g },
  { kind: 'a DigitalOcean token', re: /(?<![A-Za-z0-9])do[opr]_v1_[a-f0-9]{64}/g },
  { kind: 'a PyPI token', re: /(?<![A-Za-z0-9])pypi-AgE[A-Za-z0-9_-]{50,}/g },
  { kind: 'a Telegram bot token', re: /(?<![A-Za-z0-9])\d{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])/g },
  {
    kind: 'an Azure storage account key',
    re: /(?:AccountKey|SharedAccessKey|SharedAccessSignature)=([A-Za-z0-9+/%]{20,}={0,2})/g,
    group: 1,
  },
  { kind: 'an Azure SAS signature', re: /[?&]sig=([A-Za-z0-9%+/]{30,}={0,2})/g, group: 1 },
  { kind: 'a Shopify token', re: /(?<![A-Za-z0-9])shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}/g },
  { kind: 'a Square token', re: /(?<![A-Za-z0-9])(?:EAAA|sq0atp-|sq0csp-)[A-Za-z0-9_-]{22,}/g },
  { kind: 'an Atlassian API token', re: /(?<![A-Za-z0-9])ATATT3[A-Za-z0-9_=-]{30,}/g },
  { kind: 'a Doppler token', re: /(?<![A-Za-z0-9])dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}/g },
  { kind: 'a Postman key', re: /(?<![A-Za-z0-9])PMAK-[a-f0-9]{24}-[a-f0-9]{34}/g },
];

/** `sk-xxxxxxxxxxxxxxxxxxxx`, `AKIAIOSFODNN7EXAMPLE`: the shape of a key without a key in it. */
function isDummyKey(secret: string): boolean {
  return /example/i.test(secret) || new Set(secret.slice(-20)).size < 8;
}

function shapeFindings(text: string): RawFinding[] {
  const out: RawFinding[] = [];
  for (const shape of SHAPES) {
    for (const m of text.matchAll(shape.re)) {
      const secret = shape.group !== undefined ? m[shape.group]! : m[0];
      if (!shape.showWhole && isDummyKey(secret)) continue;
      out.push({
        kind: shape.kind,
        index: m.index! + (shape.group !== undefined ? m[0].lastIndexOf(secret) : 0),
        length: secret.length,
        ...(shape.showWhole ? { showWhole: true } : {}),
      });
    }
  }
  return out;
}

/**
 * A long random-looking token standing alone: ≥ 32 characters of a key alphabet with upper case,
 * lower case and digits and ≥ 4.2 bits of entropy per character. Hex digests and UUIDs (16
 * symbols, one case) stay under that; tokens inside a URL path, a data: URI or an SRI hash are
 * identifiers, not keys.
 */
function genericKeyFindings(text: string): RawFinding[] {
  const out: RawFinding[] = [];
  for (const m of text.matchAll(/(?<![A-Za-z0-9+/_=.-])[A-Za-z0-9+/_=-]{32,256}(?![A-Za-z0-9+/_=.-])/g)) {
    const token = m[0];
    const before = text.slice(Math.max(0, m.index! - 16), m.index!);
    if (/(?:base64,|\/|#)$/.test(before) || /(?:ssh-[a-z0-9]+|ecdsa-[a-z0-9-]+) $/.test(before)) continue;
    // SRI hashes (`sha512-…`) and SSH public key blobs (`AAAAB3NzaC1…`) are public.
    if (/^sha(?:256|384|512)-|^AAAA[BCE][0-9A-Za-z]NzaC1|^AAAAE2VjZHNh/.test(token)) continue;
    if (token.includes('/') && /[a-z]{3,}\/[a-z]{3,}/.test(token)) continue; // a path
    if (!/[a-z]/.test(token) || !/[A-Z]/.test(token) || !/[0-9]/.test(token)) continue;
    if (entropyOf(token) < 4.2) continue;
    out.push({ kind: 'a random-looking key', index: m.index!, length: token.length });
  }
  return out;
}

/** Every local match, unsorted and possibly overlapping (credentials.ts merges them). */
export function localCredentialFindings(text: string): RawFinding[] {
  return [
    ...shapeFindings(text),
    ...headerFindings(text),
    ...urlFindings(text),
    ...assignmentFindings(text),
    ...genericKeyFindings(text),
  ];
}
