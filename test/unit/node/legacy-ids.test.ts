import { describe, expect, it } from 'vitest';
import { clientRedirect } from '../../../src/node/content/client-redirect';
import { LegacySlugger } from '../../../src/node/markdown/heading-aliases';

describe('the heading ids of VuePress and VitePress', () => {
  it('are made as those tools made them, repeats numbered', () => {
    const slugger = new LegacySlugger();
    expect(slugger.slugs('Event / Execution History')).toEqual(['event-execution-history']);
    expect(slugger.slugs('Using $send.http')).toEqual(['using-send-http']);
    expect(slugger.slugs('2. Café – Setup')).toEqual(['_2-cafe-setup', '_2-cafe-–-setup']);
    expect(slugger.slugs('Using $send.http')).toEqual(['using-send-http-1']);
    expect(slugger.slugs('!!!')).toEqual([]);
  });
});

describe('a page that only redirects', () => {
  it.each([
    [
      "<script>\nexport default { beforeMount() { this.$router.push('/workflows/#triggers') } }\n</script>\n",
      '/workflows/#triggers',
    ],
    ['<script>\n  window.location.href = "https://example.com/x";\n</script>', 'https://example.com/x'],
    ["<script>location.replace('../cron/')</script>", '../cron/'],
    ['<!-- moved -->\n<meta http-equiv="refresh" content="0; url=/limits/">\n', '/limits/'],
  ])('is found in %j', (body, target) => {
    expect(clientRedirect(body)?.target).toBe(target);
  });

  it.each([
    '# Cron\n\n<script>this.$router.push("/x/")</script>\n',
    '<script>\nexport default { data: () => ({ n: 1 }) }\n</script>\n',
    '<meta name="description" content="x">',
    '',
  ])('is not a page with anything else: %j', (body) => {
    expect(clientRedirect(body)).toBeUndefined();
  });
});
