/**
 * Code the highlighter's private hooks are checked on (textmate.test.ts): real code in several languages,
 * with what carries a grammar state from one line to the next.
 */
export const SAMPLES: { lang: string; code: string }[] = [
  {
    lang: 'javascript',
    code: `/*
 * A comment over several lines, with code-looking text: const x = 1;
 */
const total = 1 + 2; // sum
const text = \`
total = 1 + 2; // sum
\${steps.trigger.event.body.name.replace(/\\s+/g, '-')}
\`;
total = 1 + 2; // sum
export default defineComponent({
  async run({ steps, $ }) {
    const re = /^(?:[a-z]+):\\/\\/[^/]+$/iu;
    return re.test(steps.url) ? { ok: true } : null;
  },
});`,
  },
  {
    lang: 'typescript',
    code: `import type { Context } from "./types";
/** Doc comment
 * @param ctx the context
 */
export async function handler<T extends object>(ctx: Context<T>): Promise<string> {
  const url = \`https://api.example.com/\${ctx.id}?q=\${encodeURIComponent(ctx.query as string)}\`;
  return (await fetch(url)).text();
}
enum Level { Low = 1, High = 2 }`,
  },
  {
    lang: 'python',
    code: `def handler(pd: "pipedream"):
    """
    A docstring over several lines.
    x = 1  # not code
    """
    import re
    pattern = re.compile(r"^\\d{3}-\\d{4}$")
    return {"ok": bool(pattern.match(pd.steps["trigger"]["event"]["phone"]))}

@decorator(retries=3)
class Client(Base):
    async def get(self, path: str) -> dict:
        return await self._session.get(f"{self.base}/{path}")`,
  },
  {
    lang: 'bash',
    code: `#!/usr/bin/env bash
set -euo pipefail
curl -X POST "https://api.pipedream.com/v1/sources" \\
  -H "Authorization: Bearer $PD_TOKEN" \\
  -d '{"key": "value"}'
cat <<EOF > config.json
{"token": "$TOKEN", "path": "$(pwd)"}
EOF
for f in *.md; do echo "\${f%.md}"; done
cat <<END
EOF
still inside: $HOME
END
cat <<EOF
END
EOF
echo "after both"`,
  },
  {
    lang: 'json',
    code: `{
  "name": "docs",
  "version": 1.5e3,
  "private": true,
  "nested": { "list": [1, "two", null, false], "escaped": "a \\"quote\\" and \\\\ slash" }
}`,
  },
  {
    lang: 'yaml',
    code: `# A workflow
name: "Example"
on:
  schedule:
    - cron: "0 * * * *"
steps:
  - run: |
      echo "a block scalar"
      key: not a key
    env: { TOKEN: \${{ secrets.TOKEN }}, COUNT: 3 }
anchors: &base
  enabled: yes
copy: *base`,
  },
  {
    lang: 'html',
    code: `<!DOCTYPE html>
<html lang="en">
<head>
  <style>
    /* a comment
       over two lines */
    .a > b { color: #fff; margin: 0 auto !important; }
  </style>
  <script type="module">
    const text = \`<div>\${name}</div>\`;
    if (a < b && /x/.test(text)) console.log("inside a script");
  </script>
</head>
<body><!-- a comment
over two lines --><a href="/docs/" data-x='y'>Docs &amp; more</a></body>
</html>`,
  },
  {
    lang: 'css',
    code: `/*
 * Code colours
 */
:root[data-theme=dark] .c-24292e-e1e4e8 { color: #e1e4e8; }
@media screen and (prefers-color-scheme: dark) { a::after { content: "→"; } }`,
  },
];
