import { mulberry32 } from '../support/prng.js';

/**
 * The labelled corpus for the credential check: realistic FAKE secrets (generated from a seeded PRNG
 * in each format's real shape, so none is a live credential) and secret-looking text that is not
 * a secret. Each secret sits in a sentence or config line the way it would reach a note.
 */
const rand = mulberry32(0x5ec2e7);
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_NUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const HEX = '0123456789abcdef';
const B64 = ALNUM + '+/';
const URLSAFE = ALNUM + '-_';

function pick(alphabet: string, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(rand() * alphabet.length)];
  // Mixed alphabets always carry each class somewhere, like real keys do.
  if (alphabet === ALNUM || alphabet === B64 || alphabet === URLSAFE) s = `a${s.slice(3)}Z7`.slice(0, n);
  return s;
}
const digits = (n: number): string => pick('0123456789', n);
const b64 = (n: number): string => Buffer.from(pick(ALNUM, n)).toString('base64');

export interface Sample {
  format: string;
  text: string;
}

const SECRET_FORMATS: Record<string, () => string> = {
  'aws access key id': () => `aws_access_key_id = AKIA${pick(UPPER_NUM, 16)}`,
  'aws secret (credentials file)': () => `[default]\naws_secret_access_key = ${pick(B64, 40)}`,
  'aws secret env': () => `export AWS_SECRET_ACCESS_KEY=${pick(B64, 40)}`,
  'db password env': () => `DB_PASSWORD=${pick(ALNUM, 14)}!`,
  'npmrc auth token': () => `//registry.npmjs.org/:_authToken=npm_${pick(ALNUM, 36)}`,
  'npm token bare': () => `publish with npm_${pick(ALNUM, 36)}`,
  'postgres url': () => `DATABASE_URL=postgres://app:${pick(ALNUM, 16)}@db.internal:5432/prod`,
  'mysql url': () => `mysql://root:${pick(ALNUM, 12)}@10.0.0.5:3306/shop`,
  'mongodb url': () => `mongodb+srv://svc:${pick(ALNUM, 18)}@cluster0.ab12c.mongodb.net/app`,
  'redis url': () => `REDIS_URL=redis://default:${pick(ALNUM, 24)}@cache.example.net:6379`,
  'amqp url': () => `amqp://worker:${pick(ALNUM, 15)}@mq.example.org:5672/vhost`,
  'https basic in url': () => `git clone https://deploy:${pick(ALNUM, 20)}@git.example.com/team/repo.git`,
  'azure storage connection': () =>
    `DefaultEndpointsProtocol=https;AccountName=prodstore;AccountKey=${b64(48)};EndpointSuffix=core.windows.net`,
  'azure service bus': () =>
    `Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=${b64(30)}`,
  'bearer header': () => `curl -H "Authorization: Bearer ${pick(URLSAFE, 40)}" https://api.example.com`,
  'basic header': () => `Authorization: Basic ${Buffer.from(`admin:${pick(ALNUM, 12)}`).toString('base64')}`,
  'huggingface token': () => `HF token hf_${pick(ALNUM, 34)}`,
  'gitlab pat': () => `GITLAB_TOKEN glpat-${pick(URLSAFE, 20)}`,
  'slack webhook': () =>
    `https://hooks.slack.com/services/T${pick(UPPER_NUM, 8)}/B${pick(UPPER_NUM, 10)}/${pick(ALNUM, 24)}`,
  'slack bot token': () => `xoxb-${digits(12)}-${digits(13)}-${pick(ALNUM, 24)}`,
  'sendgrid key': () => `SENDGRID_API_KEY SG.${pick(URLSAFE, 22)}.${pick(URLSAFE, 43)}`,
  'github pat classic': () => `token ghp_${pick(ALNUM, 36)}`,
  'github fine-grained': () => `github_pat_${pick(ALNUM, 22)}_${pick(ALNUM, 59)}`,
  'github oauth': () => `gho_${pick(ALNUM, 36)}`,
  'openai key': () => `OPENAI_API_KEY=sk-proj-${pick(URLSAFE, 48)}`,
  'anthropic key': () => `the key is sk-ant-api03-${pick(URLSAFE, 93)}AA`,
  'stripe live secret': () => `stripe key sk_live_${pick(ALNUM, 24)}`,
  'stripe restricted': () => `rk_live_${pick(ALNUM, 24)}`,
  'google api key': () => `maps key AIza${pick(URLSAFE, 35)}`,
  'google oauth secret': () => `client secret GOCSPX-${pick(URLSAFE, 28)}`,
  jwt: () =>
    `token eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.${Buffer.from(`{"sub":"${digits(8)}","name":"u"}`).toString('base64url')}.${pick(URLSAFE, 43)}`,
  'pem private key': () => `-----BEGIN RSA PRIVATE KEY-----\n${b64(48)}\n-----END RSA PRIVATE KEY-----`,
  'openssh private key': () =>
    `-----BEGIN OPENSSH PRIVATE KEY-----\n${b64(60)}\n-----END OPENSSH PRIVATE KEY-----`,
  'discord webhook': () => `https://discord.com/api/webhooks/${digits(18)}/${pick(URLSAFE, 68)}`,
  'twilio api key': () => `TWILIO SK${pick(HEX, 32)}`,
  'mailgun key': () => `mailgun key-${pick(HEX, 32)}`,
  'digitalocean token': () => `dop_v1_${pick(HEX, 64)}`,
  'pypi token': () => `password = pypi-AgEIcHlwaS5vcmc${pick(URLSAFE, 60)}`,
  'telegram bot token': () => `bot ${digits(10)}:AA${pick(URLSAFE, 33)}`,
  'shopify token': () => `shpat_${pick(HEX, 32)}`,
  'yaml password': () => `database:\n  password: "${pick(ALNUM, 10)}#${digits(3)}"`,
  'json client secret': () => `{"client_id": "web", "client_secret": "${pick(ALNUM, 32)}"}`,
  'python api key': () => `API_KEY = "${pick(ALNUM, 32)}"`,
  'generic high-entropy key': () => `use ${pick(ALNUM, 40)} for the staging deploy`,
  'docker auth': () =>
    `"auths": {"ghcr.io": {"auth": "${Buffer.from(`bot:${pick(ALNUM, 20)}`).toString('base64')}"}}`,
  'private key passphrase': () => `SSH_KEY_PASSPHRASE='${pick(ALNUM, 9)}-${digits(2)}'`,
};

export function secretSamples(perFormat = 3): Sample[] {
  const out: Sample[] = [];
  for (const [format, make] of Object.entries(SECRET_FORMATS))
    for (let i = 0; i < perFormat; i++) out.push({ format, text: make() });
  return out;
}

const uuid = (): string =>
  `${pick(HEX, 8)}-${pick(HEX, 4)}-4${pick(HEX, 3)}-a${pick(HEX, 3)}-${pick(HEX, 12)}`;

const NON_SECRET_FORMATS: Record<string, () => string> = {
  'git sha': () => `fixed in commit ${pick(HEX, 40)}`,
  'short sha': () => `see ${pick(HEX, 7)} on main`,
  sha256: () => `sha256: ${pick(HEX, 64)}`,
  uuid: () => `request id ${uuid()}`,
  'uuid upper': () => `ID ${uuid().toUpperCase()}`,
  'content hash': () => `hash = "${pick(HEX, 64)}"`,
  'placeholder env': () => 'API_KEY=<your-api-key>',
  'placeholder template': () => 'password: ${DB_PASSWORD}',
  'placeholder braces': () => 'token: {{ secrets.GITHUB_TOKEN }}',
  'placeholder stars': () => 'password = ********',
  'placeholder x': () => 'OPENAI_API_KEY=sk-xxxxxxxxxxxxxxxxxxxxxxxx',
  'env reference': () => 'api_key = os.environ["API_KEY"]',
  'process env': () => 'const token = process.env.GITHUB_TOKEN;',
  changeme: () => 'POSTGRES_PASSWORD=changeme',
  'prose password': () => 'The password must be at least 12 characters and rotated yearly.',
  'prose token': () => 'Tokens expire after 30 minutes; refresh before retrying.',
  'max tokens': () => `max_tokens: ${1000 + Math.floor(rand() * 9000)}`,
  'token count': () => `token_count = ${digits(6)}`,
  'password hint field': () => 'password_hint: favourite colour',
  'secret path': () => 'secret_file: /run/secrets/db_password',
  'token url': () => 'token_url = https://oauth2.googleapis.com/token',
  'url no creds': () => 'DATABASE_URL=postgres://localhost:5432/app_dev',
  'url user only': () => 'ssh://git@github.com/org/repo.git',
  'url placeholder password': () => 'postgres://user:password@localhost:5432/db',
  'url env password': () => 'redis://:${REDIS_PASSWORD}@localhost:6379',
  'npm integrity': () => `"integrity": "sha512-${b64(64).slice(0, 86)}=="`,
  'data uri': () => `![dot](data:image/png;base64,${b64(60)})`,
  'google docs link': () => `https://docs.google.com/document/d/1${pick(URLSAFE, 43)}/edit`,
  'youtube link': () => `https://www.youtube.com/watch?v=${pick(URLSAFE, 11)}`,
  semver: () => `upgraded to 4.${digits(2)}.${digits(1)}-beta.${digits(1)}`,
  'file path': () => '/home/dev/projects/memory-desk/electron/memory/credentials.ts',
  ipv6: () => 'listen on [2001:db8:85a3::8a2e:370:7334]:8443',
  'date time': () => '2026-03-14T09:26:53.589Z',
  'bearer prose': () => 'Send the Bearer authentication header with every call.',
  'basic prose': () => 'Basic authentication is disabled on the staging proxy.',
  'bearer placeholder': () => 'Authorization: Bearer <token>',
  'camel identifier': () => 'useRememberNoteMutationWithOptimisticUpdate',
  'kebab slug': () => 'prefer-small-files-with-one-job-and-clear-names',
  'base32 otp label': () => 'label the TOTP entry "Memory Desk (staging)"',
  'css colour': () => 'color: #1f6feb; background: #0d1117;',
  'aws arn': () => `arn:aws:iam::${digits(12)}:role/deploy-role`,
  'aws doc example': () => 'AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE',
  'k8s secret ref': () => 'secretKeyRef:\n  name: db-credentials\n  key: password',
  'ssh public key': () => `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${b64(30).slice(0, 40)} dev@laptop`,
  'pgp fingerprint': () =>
    `fingerprint ${pick(HEX, 4).toUpperCase()} ${pick(HEX, 4).toUpperCase()} ${pick(HEX, 4).toUpperCase()}`,
  'chinese prose': () => '密码至少需要十二个字符，令牌每三十分钟过期。',
  'note id': () => `see [[deploy-checklist-${pick(HEX, 3)}]]`,
  'password reset setting': () => 'password_reset: enabled',
  'secret manager': () => 'secret_manager = vault',
};

export function nonSecretSamples(perFormat = 3): Sample[] {
  const out: Sample[] = [];
  for (const [format, make] of Object.entries(NON_SECRET_FORMATS))
    for (let i = 0; i < perFormat; i++) out.push({ format, text: make() });
  return out;
}

export const SECRET_FORMAT_COUNT = Object.keys(SECRET_FORMATS).length;
