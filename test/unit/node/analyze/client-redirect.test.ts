import { describe, expect, it } from 'vitest';
import { clientRedirect } from '../../../../src/node/analyze/client-redirect';

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
