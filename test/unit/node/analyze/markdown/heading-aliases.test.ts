import { describe, expect, it } from 'vitest';
import { LegacySlugger } from '../../../../../src/node/analyze/markdown/heading-aliases';

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
