/**
 * A deterministic generator of realistic documentation trees for the benchmarks: varied technical prose,
 * h2/h3 headings, code blocks in several languages, internal links (some with anchors that exist),
 * frontmatter and nested folders. The same page count and seed always give the same files.
 *
 *   npx tsx bench/generate.ts <dir> [pages]      writes the markdown files into <dir>
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { slug } from 'github-slugger';

export const DEFAULT_PAGES = 2000;
export const DEFAULT_SEED = 20_240_611;

/** Mulberry32: a tiny seeded PRNG, good enough to vary text and stable across Node versions. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

// ---------------------------------------------------------------------------------------------------------
// Vocabulary

// prettier-ignore
const NOUNS = [
  'workflow', 'step', 'trigger', 'event', 'payload', 'request', 'response', 'header', 'token', 'secret',
  'credential', 'account', 'connection', 'integration', 'webhook', 'endpoint', 'route', 'handler', 'function',
  'module', 'package', 'dependency', 'runtime', 'container', 'queue', 'worker', 'job', 'schedule', 'timer',
  'interval', 'retry', 'timeout', 'limit', 'quota', 'buffer', 'stream', 'cursor', 'batch', 'record', 'field',
  'schema', 'table', 'index', 'cache', 'key', 'value', 'data store', 'bucket', 'object', 'file', 'directory',
  'path', 'domain', 'certificate', 'proxy', 'gateway', 'client', 'server', 'service', 'cluster', 'region',
  'deployment', 'release', 'version', 'branch', 'commit', 'build', 'artifact', 'log', 'metric', 'trace', 'span',
  'alert', 'dashboard', 'error', 'exception', 'failure', 'status', 'message', 'channel', 'topic',
  'subscription', 'consumer', 'producer', 'source', 'destination', 'action', 'component', 'prop', 'parameter',
  'argument', 'variable', 'environment', 'configuration', 'setting', 'policy', 'permission', 'role', 'user',
  'team', 'workspace', 'project', 'organization', 'invoice', 'plan', 'credit', 'invocation', 'execution',
  'instance', 'process', 'thread', 'socket', 'session', 'cookie', 'scope', 'callback', 'promise', 'iterator',
  'transform', 'filter', 'parser', 'serializer', 'validator', 'template', 'snippet', 'migration', 'rollback',
  'snapshot', 'backup', 'replica', 'shard', 'partition', 'offset', 'checkpoint', 'signature', 'hash', 'nonce',
  'digest', 'OAuth app', 'API key', 'rate limit', 'access token', 'refresh token', 'HTTP request', 'JSON body',
  'query string', 'status code', 'dead-letter queue', 'cron expression', 'memory limit', 'concurrency limit',
  'execution log', 'event history', 'custom domain', 'service account', 'audit log',
];

// prettier-ignore
const VERBS = [
  'accept', 'validate', 'store', 'return', 'emit', 'retry', 'schedule', 'process', 'parse', 'transform',
  'forward', 'reject', 'cache', 'rotate', 'refresh', 'encrypt', 'decrypt', 'compress', 'stream', 'paginate',
  'deduplicate', 'batch', 'queue', 'throttle', 'log', 'trace', 'deploy', 'publish', 'subscribe', 'configure',
  'override', 'inherit', 'resolve', 'inject', 'serialize', 'filter', 'map', 'merge', 'split', 'sort', 'index',
  'query', 'update', 'delete', 'create', 'fetch', 'send', 'receive', 'handle', 'wrap', 'expose', 'register',
  'authenticate', 'authorize', 'sign', 'verify', 'invoke', 'pause', 'resume', 'cancel', 'archive', 'restore',
  'replay', 'export', 'import', 'inspect', 'monitor', 'limit', 'share', 'connect', 'disconnect', 'upgrade',
];

const IRREGULAR_PAST: Record<string, string> = {
  send: 'sent',
  split: 'split',
  map: 'mapped',
  emit: 'emitted',
  log: 'logged',
  wrap: 'wrapped',
  sign: 'signed',
};

// prettier-ignore
const ADJECTIVES = [
  'asynchronous', 'idempotent', 'concurrent', 'durable', 'ephemeral', 'encrypted', 'signed', 'paginated',
  'cached', 'default', 'custom', 'optional', 'required', 'nested', 'empty', 'large', 'small', 'stale', 'fresh',
  'private', 'public', 'shared', 'scoped', 'global', 'local', 'remote', 'primary', 'secondary', 'incoming',
  'outgoing', 'failed', 'pending', 'active', 'inactive', 'scheduled', 'manual', 'automatic', 'structured',
  'raw', 'compressed', 'partial', 'complete', 'latest', 'previous', 'temporary', 'permanent', 'read-only',
  'writable', 'external', 'internal', 'regional', 'dedicated', 'isolated', 'verbose', 'minimal', 'strict',
  'lenient', 'consistent', 'ordered', 'duplicate', 'expired', 'valid', 'invalid', 'upstream', 'downstream',
];

// prettier-ignore
const ADVERBS = [
  'automatically', 'safely', 'quickly', 'lazily', 'eagerly', 'silently', 'explicitly', 'atomically',
  'concurrently', 'sequentially', 'periodically', 'immediately', 'eventually', 'reliably', 'usually', 'always',
  'first', 'again', 'in order', 'in parallel', 'on every run', 'before each step',
];

const TIME_UNITS = ['milliseconds', 'seconds', 'minutes', 'hours', 'days'];
const SIZE_UNITS = ['KB', 'MB', 'GB'];
const STATUS_CODES = ['400', '401', '403', '404', '408', '409', '413', '422', '429', '500', '502', '503'];
const VALUES = ['true', 'false', '0', '1', '30', '256', 'none', 'auto', 'strict', 'debug', 'us-east-1'];

// prettier-ignore
const SECTIONS = [
  'triggers', 'actions', 'data-stores', 'webhooks', 'authentication', 'scheduling', 'observability',
  'deployments', 'integrations', 'workflows', 'sources', 'destinations', 'environments', 'secrets', 'billing',
  'cli', 'rest-api', 'runtime', 'errors', 'migrations',
];
const SUBFOLDERS = ['guides', 'concepts', 'reference', 'how-to', 'recipes'];

const SENTENCES = [
  'Each «noun» «verbs» the «adj» «noun» before the «noun» is «past».',
  'When a «noun» «verbs» a «noun», the «noun» «verbs» the «adj» «nouns» «adv».',
  'By default, the «noun» keeps up to «num» «nouns» for «num» «time».',
  'You can «verb» the «noun» with `«ident»` if the «noun» is «adj».',
  'The «adj» «noun» is limited to «num» «size» per «noun».',
  'If the «noun» fails, the «noun» «verbs» it up to «small» times with an exponential backoff.',
  'Use `«ident»` to «verb» «adj» «nouns» without changing the «noun».',
  'This «noun» does not «verb» «nouns» that are already «past».',
  '«Adj» «nouns» are «past» «adv», so the «noun» never «verbs» the same «noun» twice.',
  'Set `«env»` to `«value»` to «verb» the «noun» in every «noun».',
  'Note that the «noun» only «verbs» «nouns» from the «adj» «noun».',
  'In most cases you should «verb» the «noun» first and «verb» the «noun» later.',
  'The «noun» returns a «noun» with the `«field»` field set to the «adj» «noun».',
  'For «adj» «nouns», the «noun» also «verbs» the «noun» and the «noun».',
  'A «adj» «noun» can «verb» at most «num» «nouns» at a time.',
  'Requests that exceed the «noun» receive a `«status»` response and are «past» after «small» «time».',
  'The «noun» is «past» when the «noun» «verbs» an «adj» «noun».',
  'To «verb» a «noun», open the «noun» settings and choose **«Adj» «noun»**.',
  'Every «noun» has its own «noun», which the «noun» «verbs» «adv».',
  'Because the «noun» is «adj», «nouns» may arrive out of order; «verb» them by `«field»` if order matters.',
  'The «adj» «noun» and the «adj» «noun» share one «noun», so «verb» them together.',
  'Avoid «adj» «nouns» in a «noun»: they «verb» the «noun» and slow down every «noun».',
  'Once the «noun» is «past», you can «verb» it from the «noun» or with the `«command»` command.',
  'Timeouts apply per «noun»: a «noun» that runs longer than «num» «time» is «past».',
  'The «noun» reports «nouns» in the «noun», together with the «noun» that «past» them.',
  'Pass the «noun» as `«ident»` and the «noun» «verbs» the rest.',
  'An «adj» «noun» is never «past»; «verb» it explicitly when you no longer need it.',
  'Older «nouns» keep working, but new «nouns» «verb» the «adj» «noun» instead.',
  'Check the «noun» when a «noun» stops «verbing» «nouns».',
  'Most teams «verb» one «noun» per «noun» and «verb» the rest in a shared «noun».',
];

const LINK_SENTENCES = [
  'See «link» for how the «noun» «verbs» «adj» «nouns».',
  'The same «noun» applies to «link».',
  'For a complete example, read «link».',
  'This works the same way as «link», except that the «noun» is «adj».',
  'If you need to «verb» the «noun» as well, «link» explains the options.',
  'Related settings are described in «link».',
];

const HEADINGS = [
  '«Verb» the «adj» «noun»',
  '«Adj» «nouns»',
  'How «nouns» are «past»',
  '«Noun» limits',
  '«Verb» «nouns» from a «noun»',
  'When the «noun» fails',
  '«Noun» and «noun» settings',
  'Troubleshooting «adj» «nouns»',
  'Example: «verb» a «noun»',
  '«Adj» «noun» reference',
  'Before you «verb» the «noun»',
  'Why «nouns» are «adj»',
];

const TITLES = [
  '«Adj» «nouns»',
  '«Verb» «adj» «nouns»',
  '«Noun» «nouns»',
  'Working with «adj» «nouns»',
  '«Noun» reference',
  'Troubleshooting «nouns»',
  '«Adj» «noun» «nouns»',
  '«Verb» a «noun» with a «noun»',
];

const DESCRIPTIONS = [
  'How the «noun» «verbs» «adj» «nouns», and what to do when it fails.',
  'Configure «adj» «nouns» for every «noun» in a «noun».',
  'Everything about «nouns»: limits, settings and common errors.',
  'Learn when to «verb» a «noun» and how the «noun» reports it.',
];

// ---------------------------------------------------------------------------------------------------------
// Words

function plural(noun: string): string {
  if (/(s|x|ch|sh)$/.test(noun)) return `${noun}es`;
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  return `${noun}s`;
}

function thirdPerson(verb: string): string {
  if (/(s|x|ch|sh)$/.test(verb)) return `${verb}es`;
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}

function pastParticiple(verb: string): string {
  const irregular = IRREGULAR_PAST[verb];
  if (irregular) return irregular;
  if (verb.endsWith('e')) return `${verb}d`;
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ied`;
  return `${verb}ed`;
}

function gerund(verb: string): string {
  if (verb === 'map' || verb === 'emit' || verb === 'log' || verb === 'wrap') return `${verb}${verb.slice(-1)}ing`;
  if (verb.endsWith('e') && !verb.endsWith('ee')) return `${verb.slice(0, -1)}ing`;
  return `${verb}ing`;
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const camel = (words: string[]) =>
  words
    .join(' ')
    .split(/[\s-]+/)
    .map((w, i) => (i === 0 ? w.toLowerCase() : capitalize(w.toLowerCase())))
    .join('');

/** Fills «slot» placeholders from the vocabulary. */
class Writer {
  constructor(readonly random: () => number) {}

  int(min: number, max: number): number {
    return min + Math.floor(this.random() * (max - min + 1));
  }

  pick<T>(list: readonly T[]): T {
    const item = list[Math.floor(this.random() * list.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  /** `count` distinct items. */
  sample<T>(list: readonly T[], count: number): T[] {
    const copy = [...list];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.random() * (i + 1));
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy.slice(0, count);
  }

  ident(): string {
    return this.random() < 0.5
      ? camel([this.pick(VERBS), this.pick(NOUNS)])
      : camel([this.pick(ADJECTIVES).replace('-', ''), this.pick(NOUNS)]);
  }

  fill(template: string, extra: Record<string, string> = {}): string {
    return template.replace(/«(\w+)»/g, (_, slot: string) => {
      const lower = slot.toLowerCase();
      const value = extra[slot] ?? this.slot(lower);
      return slot === lower ? value : capitalize(value);
    });
  }

  private slot(name: string): string {
    switch (name) {
      case 'noun':
        return this.pick(NOUNS);
      case 'nouns':
        return plural(this.pick(NOUNS));
      case 'verb':
        return this.pick(VERBS);
      case 'verbs':
        return thirdPerson(this.pick(VERBS));
      case 'verbing':
        return gerund(this.pick(VERBS));
      case 'past':
        return pastParticiple(this.pick(VERBS));
      case 'adj':
        return this.pick(ADJECTIVES);
      case 'adv':
        return this.pick(ADVERBS);
      case 'num':
        return String(this.pick([5, 10, 15, 25, 30, 50, 60, 100, 128, 250, 256, 500, 512, 1000, 1024, 10_000]));
      case 'small':
        return String(this.int(2, 8));
      case 'time':
        return this.pick(TIME_UNITS);
      case 'size':
        return this.pick(SIZE_UNITS);
      case 'status':
        return this.pick(STATUS_CODES);
      case 'value':
        return this.pick(VALUES);
      case 'ident':
        return this.ident();
      case 'field':
        return camel([this.pick(NOUNS)]);
      case 'env':
        return `PD_${this.pick(NOUNS)
          .toUpperCase()
          .replace(/[\s-]+/g, '_')}`;
      case 'command':
        return `pd ${this.pick(['deploy', 'logs', 'publish', 'describe', 'list', 'update', 'delete'])} ${slug(this.pick(NOUNS))}`;
      default:
        throw new Error(`unknown slot «${name}»`);
    }
  }

  sentence(): string {
    return articles(this.fill(this.pick(SENTENCES)));
  }
}

/** "a" or "an" by the next word's first letter (close enough for generated prose). */
const articles = (text: string) =>
  text.replace(/\b([Aa])n? (\w)/g, (_, a: string, next: string) => `${a}${/[aeio]/i.test(next) ? 'n' : ''} ${next}`);

const wordCount = (text: string) => text.split(/\s+/).filter((w) => /\w/.test(w)).length;

// ---------------------------------------------------------------------------------------------------------
// Code blocks

type Language = 'javascript' | 'python' | 'bash' | 'json' | 'yaml' | 'go';
const LANGUAGES: Language[] = ['javascript', 'python', 'bash', 'json', 'yaml', 'go'];

function code(language: Language, w: Writer): string {
  const noun = slug(w.pick(NOUNS));
  const items = plural(noun);
  const ident = w.ident();
  const other = w.ident();
  const limit = w.pick([10, 25, 50, 100, 250]);
  const variant = w.int(0, 1);
  switch (language) {
    case 'javascript':
      return variant === 0
        ? `import axios from "axios";

export default defineComponent({
  props: {
    ${ident}: { type: "string", label: "${capitalize(noun)} ID" },
  },
  async run({ steps, $ }) {
    const { data } = await axios.get(\`https://api.example.com/v1/${items}/\${this.${ident}}\`, {
      headers: { Authorization: \`Bearer \${process.env.API_TOKEN}\` },
      params: { limit: ${limit}, cursor: steps.trigger.event.cursor },
    });
    if (!data.${items}.length) {
      return $.flow.exit("no ${items} to process");
    }
    $.export("$summary", \`Fetched \${data.${items}.length} ${items}\`);
    return data.${items};
  },
});`
        : `async function ${other}(${items}, { retries = ${w.int(2, 5)} } = {}) {
  const results = [];
  for (const item of ${items}) {
    for (let attempt = 1; attempt <= retries; attempt++) {
      try {
        results.push(await ${ident}(item));
        break;
      } catch (err) {
        if (attempt === retries || err.status < 500) throw err;
        await new Promise((r) => setTimeout(r, 2 ** attempt * ${limit}));
      }
    }
  }
  return results;
}`;
    case 'python':
      return variant === 0
        ? `import requests

def handler(pd: "pipedream"):
    token = pd.inputs["${ident}"]["$auth"]["oauth_access_token"]
    response = requests.get(
        "https://api.example.com/v2/${items}",
        headers={"Authorization": f"Bearer {token}"},
        params={"page_size": ${limit}},
        timeout=${w.int(5, 30)},
    )
    response.raise_for_status()
    ${items.replace(/-/g, '_')} = response.json()["data"]
    pd.export("count", len(${items.replace(/-/g, '_')}))
    return ${items.replace(/-/g, '_')}`
        : `from datetime import datetime, timedelta


def ${camel([w.pick(VERBS), noun]).replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}(records, max_age_days=${w.int(1, 30)}):
    """Keep the records newer than max_age_days, newest first."""
    cutoff = datetime.utcnow() - timedelta(days=max_age_days)
    fresh = [r for r in records if datetime.fromisoformat(r["updated_at"]) > cutoff]
    return sorted(fresh, key=lambda r: r["updated_at"], reverse=True)[:${limit}]`;
    case 'bash':
      return variant === 0
        ? `curl -X POST "https://api.example.com/v1/${items}" \\
  -H "Authorization: Bearer $API_TOKEN" \\
  -H "Content-Type: application/json" \\
  -d '{"name": "${ident}", "limit": ${limit}}'`
        : `pd login
pd deploy ./components/${noun}.mjs --name ${slug(ident)}
pd logs ${slug(ident)} --follow | grep -i "${w.pick(['error', 'warning', 'timeout'])}"`;
    case 'json':
      return variant === 0
        ? `{
  "id": "${noun}_${w.int(10_000, 99_999)}",
  "type": "${noun}.${pastParticiple(w.pick(VERBS))}",
  "created_at": "2024-0${w.int(1, 9)}-1${w.int(0, 9)}T0${w.int(0, 9)}:${w.int(10, 59)}:00Z",
  "data": {
    "${ident}": ${w.random() < 0.5 ? 'true' : limit},
    "${other}": "${w.pick(VALUES)}",
    "tags": ["${w.pick(ADJECTIVES)}", "${w.pick(ADJECTIVES)}"]
  }
}`
        : `{
  "error": {
    "code": ${w.pick(STATUS_CODES)},
    "message": "${capitalize(noun)} ${pastParticiple(w.pick(VERBS))} too often",
    "retry_after": ${w.int(1, 120)}
  }
}`;
    case 'yaml':
      return variant === 0
        ? `name: ${slug(ident)}
trigger:
  type: http
  path: /${items}
steps:
  - name: ${slug(other)}
    action: ${noun}.${w.pick(VERBS)}
    with:
      limit: ${limit}
      retries: ${w.int(1, 5)}
  - name: notify
    action: slack.send_message
    with:
      channel: "#${noun}-alerts"`
        : `${noun.replace(/-/g, '_')}:
  enabled: true
  timeout_seconds: ${w.int(10, 300)}
  concurrency: ${w.int(1, 16)}
  environment:
    ${`PD_${noun.toUpperCase().replace(/-/g, '_')}`}: "${w.pick(VALUES)}"`;
    case 'go':
      return variant === 0
        ? `package main

import (
	"encoding/json"
	"fmt"
	"net/http"
)

type ${capitalize(camel([noun]))} struct {
	ID     string \`json:"id"\`
	Status string \`json:"status"\`
}

func main() {
	resp, err := http.Get("https://api.example.com/v1/${items}?limit=${limit}")
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	var ${camel([items])} []${capitalize(camel([noun]))}
	json.NewDecoder(resp.Body).Decode(&${camel([items])})
	fmt.Println(len(${camel([items])}), "${items}")
}`
        : `func ${capitalize(other)}(ctx context.Context, c *Client, id string) error {
	for attempt := 0; attempt < ${w.int(2, 5)}; attempt++ {
		err := c.${capitalize(ident)}(ctx, id)
		if err == nil {
			return nil
		}
		time.Sleep(time.Duration(attempt+1) * ${limit} * time.Millisecond)
	}
	return fmt.Errorf("${noun} %s: giving up", id)
}`;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Pages

interface PagePlan {
  /** Path inside the content folder, with forward slashes. */
  file: string;
  route: string;
  title: string;
  description: string;
  headings: { level: 2 | 3; text: string; slug: string }[];
}

function uniqueText(w: Writer, templates: readonly string[], taken: Set<string>): string {
  for (let attempt = 0; attempt < 50; attempt++) {
    const text = capitalize(w.fill(w.pick(templates)));
    if (!taken.has(text.toLowerCase())) {
      taken.add(text.toLowerCase());
      return text;
    }
  }
  throw new Error('could not find a unique text');
}

function planPages(count: number, w: Writer): PagePlan[] {
  const titles = new Set<string>();
  const names = new Set<string>();
  const plans: PagePlan[] = [];
  const sectionCount = Math.min(SECTIONS.length, Math.max(1, count - 1));
  const perSection = Math.ceil((count - 1) / sectionCount);
  const plan = (file: string, route: string, title?: string): PagePlan => {
    const headingTexts = new Set<string>();
    const levels: (2 | 3)[] = [2, 3, 3, 2, 3, 2, 3, 2];
    return {
      file,
      route,
      title: title ?? uniqueText(w, TITLES, titles),
      description: capitalize(w.fill(w.pick(DESCRIPTIONS))),
      headings: levels.map((level, i) => {
        const text = i === levels.length - 1 ? 'Related pages' : uniqueText(w, HEADINGS, headingTexts);
        return { level, text, slug: slug(text) };
      }),
    };
  };
  plans.push(plan('README.md', '/', 'Generated documentation'));
  for (let s = 0; s < sectionCount && plans.length < count; s++) {
    const section = SECTIONS[s] ?? `section-${s}`;
    const sectionTitle = capitalize(section.replace(/-/g, ' ')).replace(/\b(cli|api)\b/gi, (m) => m.toUpperCase());
    titles.add(sectionTitle.toLowerCase());
    plans.push(plan(`${section}/README.md`, `/${section}/`, sectionTitle));
    for (let i = 1; i < perSection && plans.length < count; i++) {
      const sub = SUBFOLDERS[Math.floor((i - 1) / 25) % SUBFOLDERS.length] ?? 'guides';
      const page = plan('', '');
      let name = slug(page.title);
      while (names.has(`${section}/${sub}/${name}`)) name = `${name}-2`;
      names.add(`${section}/${sub}/${name}`);
      page.file = `${section}/${sub}/${name}.md`;
      page.route = `/${section}/${sub}/${name}/`;
      plans.push(page);
    }
  }
  return plans;
}

function linkTo(from: PagePlan, to: PagePlan, w: Writer, withAnchor: boolean): { href: string; text: string } {
  const heading = withAnchor ? w.pick(to.headings) : undefined;
  const hash = heading ? `#${heading.slug}` : '';
  const text = heading ? heading.text : to.title;
  const form = w.int(0, 2);
  if (form === 0) return { href: `${to.route}${hash}`, text };
  if (form === 1) return { href: `${to.route.replace(/\/$/, '') || '/'}${hash}`, text };
  const relative = path.posix.relative(path.posix.dirname(from.file), to.file);
  return { href: `${relative}${hash}`, text };
}

function pickTargets(plans: PagePlan[], bySection: Map<string, PagePlan[]>, index: number, w: Writer): PagePlan[] {
  const self = plans[index];
  const chosen = new Set<PagePlan>();
  const neighbours = (self && bySection.get(sectionOf(self))) ?? [];
  for (let tries = 0; chosen.size < 4 && tries < 40; tries++) {
    const p = neighbours.length > 0 ? w.pick(neighbours) : undefined;
    if (p && p !== self) chosen.add(p);
  }
  while (chosen.size < Math.min(10, plans.length - 1)) {
    const p = w.pick(plans);
    if (p !== self) chosen.add(p);
  }
  return [...chosen];
}

const sectionOf = (plan: PagePlan) => plan.file.split('/')[0] ?? '';

function renderPage(plans: PagePlan[], bySection: Map<string, PagePlan[]>, index: number, w: Writer): string {
  const page = plans[index];
  if (!page) throw new Error(`no page ${index}`);
  const targets = pickTargets(plans, bySection, index, w);
  const links = targets.map((t, i) => linkTo(page, t, w, i % 5 < 2));
  const inline = links.slice(0, 6);
  const related = links.slice(6);
  const languages = w.sample(LANGUAGES, 3);
  const codeAfter = new Set(w.sample([0, 1, 2, 3, 4, 5, 6], 3));
  const budget = w.int(470, 550);
  const blocks = page.headings.length + 1;
  const perBlock = budget / blocks;
  const out: string[] = [
    '---',
    `title: ${JSON.stringify(page.title)}`,
    `description: ${JSON.stringify(page.description)}`,
    '---',
    '',
    `# ${page.title}`,
    '',
  ];
  const paragraph = (target: number, link?: { href: string; text: string }) => {
    const sentences: string[] = [];
    let n = 0;
    if (link) {
      const s = articles(w.fill(w.pick(LINK_SENTENCES), { link: `[${link.text}](${link.href})` }));
      sentences.push(s);
      n += wordCount(s);
    }
    while (n < target) {
      const s = w.sentence();
      sentences.splice(w.int(0, sentences.length), 0, s);
      n += wordCount(s);
    }
    return sentences.join(' ');
  };
  out.push(paragraph(perBlock * 0.9, inline.shift()), '');
  page.headings.forEach((heading, i) => {
    out.push(`${'#'.repeat(heading.level)} ${heading.text}`, '');
    if (heading.text === 'Related pages') {
      out.push(paragraph(perBlock * 0.5), '');
      for (const link of [...inline, ...related]) out.push(`- [${link.text}](${link.href})`);
      out.push('');
      return;
    }
    const parts = w.random() < 0.6 ? 2 : 1;
    for (let p = 0; p < parts; p++) {
      out.push(paragraph((perBlock * 0.95) / parts, p === 0 && w.random() < 0.6 ? inline.shift() : undefined), '');
    }
    if (w.random() < 0.25) {
      for (let item = 0; item < 3; item++) out.push(`- ${capitalize(w.fill('«adj» «nouns» are «past» «adv»'))}.`);
      out.push('');
    }
    if (codeAfter.has(i)) {
      const language = languages.shift();
      if (language) out.push(`\`\`\`${language}`, code(language, w), '```', '');
    }
  });
  return `${out.join('\n').trimEnd()}\n`;
}

/** The files of a generated tree (paths relative to the content folder) in a stable order. */
export function generateFiles(pages = DEFAULT_PAGES, seed = DEFAULT_SEED): Map<string, string> {
  if (!Number.isInteger(pages) || pages < 2) throw new Error(`pages must be an integer of at least 2, not ${pages}`);
  const w = new Writer(seededRandom(seed));
  const plans = planPages(pages, w);
  const files = new Map<string, string>();
  const bySection = new Map<string, PagePlan[]>();
  for (const plan of plans) {
    const list = bySection.get(sectionOf(plan));
    if (list) list.push(plan);
    else bySection.set(sectionOf(plan), [plan]);
  }
  plans.forEach((plan, i) => files.set(plan.file, renderPage(plans, bySection, i, w)));
  return files;
}

/** Writes a generated tree into `dir` (the content folder) and returns the number of pages. */
export async function generateTree(dir: string, pages = DEFAULT_PAGES, seed = DEFAULT_SEED): Promise<number> {
  const files = generateFiles(pages, seed);
  const folders = new Set([...files.keys()].map((file) => path.dirname(path.join(dir, file))));
  for (const folder of folders) await mkdir(folder, { recursive: true });
  const entries = [...files];
  for (let i = 0; i < entries.length; i += 64) {
    await Promise.all(entries.slice(i, i + 64).map(([file, text]) => writeFile(path.join(dir, file), text)));
  }
  return files.size;
}

async function main(args: string[]): Promise<void> {
  const [dir, count] = args;
  const pages = count === undefined ? DEFAULT_PAGES : Number(count);
  if (!dir || !Number.isInteger(pages) || pages < 2) {
    console.error('usage: npx tsx bench/generate.ts <dir> [pages]   (pages: an integer ≥ 2, default 2000)');
    process.exitCode = 2;
    return;
  }
  const started = performance.now();
  const written = await generateTree(path.resolve(dir), pages);
  console.log(`wrote ${written} pages to ${path.resolve(dir)} in ${Math.round(performance.now() - started)} ms`);
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
